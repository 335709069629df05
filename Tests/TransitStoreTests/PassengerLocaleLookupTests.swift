import Foundation
import GRDB
import KioskTesting
import Testing
import TransitModel

@testable import TransitStore

/// The feed's language, country and translations (translations.txt) as a passenger meets them: the route
/// database's facts for `PassengerLocale.decide`, the names in each language, and `kiosk lookup` on an English
/// US feed without `--lang`.
@Suite struct PassengerLocaleLookupTests {
    static let imported = Result { () throws -> String in
        let path = TemporaryFolder.make("english-us").appendingPathComponent("routes.sqlite").path
        _ = try GTFSImporter(feedPath: EnglishUSFeed.folder().path, databasePath: path).run()
        return path
    }

    func database() throws -> RouteDatabase { try RouteDatabase(path: try Self.imported.get()) }

    func view(_ db: RouteDatabase, _ stop: String) throws -> StopView {
        try db.stopView(
            for: try db.resolveStop(.idOrCode(stop)),
            at: try #require(LocalTime.parse(EnglishUSFeed.afternoon, in: db.timeZone)), windowMinutes: 60)
    }

    func lookup(_ arguments: [String]) throws -> ProcessResult {
        try Programs.runKiosk(
            ["lookup", "--db", try Self.imported.get(), "--at", EnglishUSFeed.afternoon]
                + arguments)
    }

    @Test func theDatabaseSaysItsLanguageAndPlace() throws {
        let facts = try database().feedLocaleFacts()
        #expect(facts == PassengerLocale.FeedFacts(agencyLangs: ["en"], timeZone: "America/New_York"))
        let locale = PassengerLocale.decide(feed: facts)
        #expect(locale.language == .en && locale.region == "US")
    }

    @Test func translationsAreImportedAsTheFeedGivesThem() throws {
        let rows = try DatabaseQueue(path: try Self.imported.get()).read { db in
            try String.fetchAll(
                db, sql: "SELECT table_name || '.' || field_name || ' ' || language FROM translations ORDER BY rowid")
        }
        // The language's primary tag ("es-US" → "es"); rows of fields the kiosk does not show are kept.
        #expect(rows == [
            "stops.stop_name es", "stops.stop_name es", "stops.stop_name en", "trips.trip_headsign es",
            "trips.trip_headsign es", "routes.route_long_name es", "agency.agency_name es",
        ])
    }

    @Test func namesInEachLanguageWhereTheFeedTranslatesThem() throws {
        let db = try database()
        let view = try view(db, "MAIN")
        let spanish = db.translated(view, into: .es)
        #expect(spanish.stop.name == "Estación Calle Mayor")
        #expect(spanish.departures.map(\.headsign) == ["Zoológico"])
        #expect(spanish.routes.first?.route.longName == "Circuito Ribereño")
        #expect(spanish.routes.first?.route.shortName == "4")  // not translated: as the feed has it
        #expect(spanish.nearby.map(\.stop.name).contains("Biblioteca Pública"))  // by field_value
        // A headsign translated by record (trip T3) is translated wherever that headsign is shown.
        let library = db.translated(try self.view(db, "LIB"), into: .es)
        #expect(library.routes.flatMap(\.directions).flatMap(\.headsigns).sorted() == ["Centro", "Zoológico"])
        let english = db.translated(view, into: .en)
        #expect(english.stop.name == "Main St Station")
        #expect(english.departures.map(\.headsign) == ["City Zoo"])  // no English translation: the feed's
        #expect(english.nearby.map(\.stop.name).contains("Public Library"))
    }

    @Test func aDatabaseWithoutTheTableShowsTheFeedsNames() throws {
        let copy = TemporaryFolder.make("older").appendingPathComponent("routes.sqlite").path
        try FileManager.default.copyItem(atPath: try Self.imported.get(), toPath: copy)
        try DatabaseQueue(path: copy).write { db in try db.execute(sql: "DROP TABLE translations") }
        let db = try RouteDatabase(path: copy)
        #expect(db.translations(for: .es).isEmpty)
        #expect(db.translated(try view(db, "MAIN"), into: .es).stop.name == "Main Street Station")
    }

    @Test func lookupOnAnEnglishUSFeedIsInEnglishWithTwelveHourTimesAndFeet() throws {
        let result = try lookup(["MAIN"])
        #expect(result.status == 0, "\(result.stderr)")
        let text = result.stdout
        #expect(text.contains("Main St Station  [101]"), "\(text)")
        #expect(text.contains("8/19/2026 3:00 PM America/New_York"), "\(text)")
        #expect(text.contains("Departures in the next 60 min"), "\(text)")
        #expect(text.contains(" 3:05 PM  4      City Zoo"), "\(text)")
        #expect(text.contains("First and last departure (8/19/2026)"), "\(text)")
        #expect(text.contains("3:05 PM – 9:35 PM"), "\(text)")
        #expect(text.contains("Nearby stops (within 0.2 mi)"), "\(text)")
        #expect(text.contains("Public Library [102]") && text.contains("520 ft N"), "\(text)")
        #expect(!text.contains("15:05") && !text.contains(" m "), "\(text)")
    }

    @Test func lookupInSpanishShowsTheFeedsSpanishNames() throws {
        let result = try lookup(["MAIN", "--lang", "es"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Estación Calle Mayor  [101]"), "\(result.stdout)")
        #expect(result.stdout.contains("3:05 p. m.  4      Zoológico"), "\(result.stdout)")
        #expect(result.stdout.contains("Paradas cercanas (hasta 0,2 mi)"), "\(result.stdout)")
        #expect(result.stdout.contains("Biblioteca Pública [102]"), "\(result.stdout)")
        // JSON keeps the feed's own names (a program picks its language itself).
        let json = try lookup(["MAIN", "--lang", "es", "--json"])
        #expect(json.stdout.contains("\"name\" : \"Main Street Station\""), "\(json.stdout.prefix(400))")
    }

    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missing)))
    func cartaIsShownInEnglishWithoutLang() throws {
        let feed = try #require(SharedData.folder).appendingPathComponent("gtfs/carta.zip").path
        let path = TemporaryFolder.make("carta").appendingPathComponent("routes.sqlite").path
        _ = try GTFSImporter(feedPath: feed, databasePath: path).run()
        let db = try RouteDatabase(path: path)
        let locale = PassengerLocale.decide(feed: db.feedLocaleFacts())
        #expect(locale.language == .en && locale.languageSource == "feed_info.feed_lang en")
        #expect(locale.units == .imperial && locale.clock == .twelveHour)
        let result = try Programs.runKiosk(
            ["lookup", "1095", "--db", path, "--at", "2026-08-20T15:00"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Departures in the next 60 min"), "\(result.stdout)")
        #expect(result.stdout.contains("3:04 PM"), "\(result.stdout)")
        #expect(result.stdout.contains("ft NW"), "\(result.stdout)")
    }
}
