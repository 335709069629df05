import Foundation
import KioskConfiguration
import Mustache
import StopPresentation
import TransitModel
import TransitStore

/// Renders the phone pages from `PageTemplates` with swift-mustache. Every text from the feed or the request goes
/// through `{{…}}`, which HTML-escapes it.
struct PageRenderer: Sendable {
    let library: MustacheLibrary

    init(display: DisplaySettings = DisplaySettings()) throws {
        let themeClasses = Stylesheet.bodyClasses(display)
        var library = MustacheLibrary()
        for (name, text) in [
            ("head", PageTemplates.head), ("foot", PageTemplates.foot), ("searchForm", PageTemplates.searchForm),
            ("search", PageTemplates.search), ("stop", PageTemplates.stop), ("plan", PageTemplates.plan),
            ("message", PageTemplates.message), ("kiosk", PageTemplates.kiosk), ("board", PageTemplates.board),
            ("prompt", PageTemplates.prompt), ("takeover", PageTemplates.takeover),
        ] + PageTemplates.browse + PageTemplates.kioskExtras {
            library.register(
                try MustacheTemplate(string: text.replacingOccurrences(of: "%THEME%", with: themeClasses)), named: name)
        }
        self.library = library
    }

    func render(_ model: Any, _ template: String) -> String {
        library.render(model, withTemplate: template) ?? ""
    }

    /// What every page's head and bar need.
    struct Frame {
        var language: String
        var title: String
        var brand: String
        var otherLanguage: String
        var otherLanguageName: String
        var otherLanguageHref: String
        var feedTag: String
        var searchHint: String
        var searchLabel: String
        var query: String

        init(
            language: Language, title: String, path: String, query: [(String, String)] = [], feedTag: String,
            search: String = ""
        ) {
            self.language = language.rawValue
            self.title = title
            brand = "StopKiosk"
            otherLanguage = language.other.rawValue
            otherLanguageName = language == .es ? "English" : "Español"
            otherLanguageHref =
                path + "?"
                + (query.filter { $0.0 != "lang" } + [("lang", language.other.rawValue)])
                .map { "\(Frame.encode($0.0))=\(Frame.encode($0.1))" }.joined(separator: "&")
            self.feedTag = feedTag
            searchHint = Message.webSearchHint.text(language)
            searchLabel = Message.webSearch.text(language)
            self.query = search
        }

        static func encode(_ text: String) -> String {
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        }
    }

    struct MessagePage {
        var page: Frame
        var kind: String
        var heading: String
        var detail: String?
        var showSearch: Bool
        var backHome: String
    }

    /// An error page in the reader's language; a 404 has a search box.
    func errorPage(_ problem: Problem, language: Language, feedTag: String = "0") -> String {
        let heading: Message =
            switch problem.status.code {
            case 404: .webPageNotFound
            case 400, 413, 414: .webBadRequest
            default: .webSomethingWrong
            }
        let page = Frame(
            language: language, title: heading.text(language), path: "/", feedTag: feedTag)
        return render(
            MessagePage(
                page: page, kind: "notice", heading: heading.text(language), detail: problem.detail,
                showSearch: problem.status.code == 404, backHome: Message.webBackHome.text(language)), "message")
    }
}

/// CSS for route badges in the feed's colours: `.r-<hash>` per route, colours checked to be six hex digits.
enum RouteColours {
    static func className(_ route: RouteInfo) -> String {
        "r-" + String(ETag.of(route.id.utf8).dropFirst().prefix(10))
    }

    static func stylesheet(_ routes: [RouteInfo]) -> String {
        var lines = ["/* route colours from the feed */"]
        for route in routes {
            guard let background = hex(route.color) else { continue }
            let text = hex(route.textColor) ?? (luminance(background) > 0.5 ? "000000" : "FFFFFF")
            lines.append(".\(className(route)){background:#\(background);color:#\(text);border-color:#\(text)}")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func hex(_ value: String?) -> String? {
        guard let value, value.utf8.count == 6, value.allSatisfy({ $0.isHexDigit }) else { return nil }
        return value.uppercased()
    }

    static func luminance(_ hex: String) -> Double {
        let value = Int(hex, radix: 16) ?? 0
        let r = Double((value >> 16) & 0xFF), g = Double((value >> 8) & 0xFF), b = Double(value & 0xFF)
        return (0.299 * r + 0.587 * g + 0.114 * b) / 255
    }
}
