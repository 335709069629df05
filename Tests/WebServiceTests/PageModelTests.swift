import Foundation
import Mustache
import Testing
import TransitModel
import TransitStore

@testable import WebService

/// The page models answer Mustache by name (`PageModels+Mustache.swift`): every stored property, under its own
/// name, with the value `Mirror` sees — so a field added to a model but not to its `child(named:)` fails here.
@Suite struct PageModelTests {
    static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first?.value
    }

    static func describe(_ value: Any?) -> String { value.map { String(describing: $0) } ?? "nil" }

    static func expectSameAsMirror(_ model: some MustacheParent) {
        let children = Mirror(reflecting: model).children
        #expect(!children.isEmpty)
        for case let (label?, field) in children {
            #expect(
                describe(model.child(named: label)) == describe(unwrapped(field)),
                "\(type(of: model)).\(label): child(named:) differs from the stored property")
        }
        #expect(model.child(named: "no-such-field") == nil)
    }

    @Test func everyStopPageModelAnswersEveryFieldByName() throws {
        let database = try RouteDatabase(path: TestSupport.sampleDatabase)
        let stop = try database.resolveStop(.idOrCode("1091"))
        let view = try database.stopView(for: stop, at: TestSupport.morning)
        let frame = PageRenderer.Frame(language: .en, title: "El Ejido", path: "/s/1091", feedTag: "tag")
        let page = PageRoutes.stopModel(view, language: .en, frame: frame)
        #expect(!page.routes.isEmpty && !page.departures.isEmpty && !page.spans.isEmpty && !page.nearby.isEmpty)
        Self.expectSameAsMirror(page)
        Self.expectSameAsMirror(page.page)
        Self.expectSameAsMirror(page.routes[0])
        Self.expectSameAsMirror(page.routes[0].diagrams[0])
        Self.expectSameAsMirror(page.departures[0])
        Self.expectSameAsMirror(try #require(page.groups.first))
        Self.expectSameAsMirror(page.groups[0].times[0])
        Self.expectSameAsMirror(page.spans[0])
        Self.expectSameAsMirror(page.nearby[0])
        Self.expectSameAsMirror(PageRoutes.StopPage.Alert(header: "Obras", description: nil))
    }
}
