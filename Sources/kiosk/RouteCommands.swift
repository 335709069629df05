import ArgumentParser
import Foundation
import StopPresentation
import TransitModel
import TransitStore

struct RoutesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "List the operators and their routes: short and long name, mode and colour.",
        discussion: """
            Agencies come in the order of agency.txt, each with its routes in the feed's order (route_sort_order, then short names in natural order: 2 before 10). --agency keeps one operator, named by its agency_id or its name; an unknown one exits with status 2 and the list of agencies. --search finds text in an operator's name (all its routes) or a route's short or long name, ignoring accents, case and punctuation ("cumbaya" finds "Cumbayá").

            --json prints the same catalog as JSON: agencies (id, name, url, phone), each with its routes (id, short_name, long_name, mode, color, text_color, agency).
            """
    )

    @Option(help: ArgumentHelp("Only this operator: an agency_id or name.", valueName: "id|name"))
    var agency: String?

    @Option(help: ArgumentHelp("Text to find in operator and route names.", valueName: "text"))
    var search: String?

    @OptionGroup var output: OutputOptions

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var configOption: ConfigOption

    func run() throws {
        try reportingRouteErrors {
            let config = try configOption.load()
            let routes = try database.open(config: config)
            let language = output.locale(config: config, routes: routes).language
            let catalog = try routes.routeCatalog(agency: agency, search: search)
            print(
                output.json
                    ? try RouteCatalogJSON.render(catalog) : RouteCatalogText.render(catalog, language: language))
        }
    }
}

struct RouteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "route",
        abstract: "Show a route: its stops per direction, branches, first and last trip, headways, and operator.",
        discussion: """
            ROUTE is a route_id, a short name, a long name, or a part of one name only one route has (accents and case ignored: "cumbaya" finds "Alimentador Río Coca – Cumbayá"). An unknown route exits with status 2 and the routes it may have meant; a name several routes share lists them.

            Each direction lists the stops of its longest stop pattern in travel order; the other patterns are noted as variants: where some trips start or end, and the stops only they serve. For --date (default: today in the agency's time zone) it gives the number of trips, the first and last (departures from each trip's first stop) and the typical headway, the median gap between departures, per period of the service day: morning peak 06:00–09:00, midday 09:00–16:00, evening 16:00–20:00, night 20:00–06:00 (times past 24:00 count as night or the next morning). Frequency-based service (frequencies.txt) counts as a departure every headway_secs. A date outside the feed's calendar exits with status 2 and names the dates it covers.

            The operator's contact (web site and phone) comes from agency.txt. --json prints the same detail as JSON.
            """
    )

    @Argument(help: "A route_id, short name or long name.")
    var route: String

    @Option(help: "Only this direction_id (0 or 1).")
    var direction: Int?

    @Option(help: ArgumentHelp("The service date, e.g. 2026-11-25 (default: today).", valueName: "yyyy-mm-dd"))
    var date: String?

    @OptionGroup var output: OutputOptions

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var configOption: ConfigOption

    func validate() throws {
        if let direction, !(0...1).contains(direction) {
            throw ValidationError("--direction must be 0 or 1 (got \(direction))")
        }
        if let date, ServiceDate(parsing: date) == nil {
            throw ValidationError(
                "--date must be a date such as 2026-11-25 (got '\(TerminalText.sanitize(date, maxLength: 40))')")
        }
    }

    func run() throws {
        try reportingRouteErrors {
            let config = try configOption.load()
            let routes = try database.open(config: config)
            let language = output.locale(config: config, routes: routes).language
            let detail = try routes.routeDetail(
                route, direction: direction, date: date.flatMap(ServiceDate.init(parsing:)))
            print(
                output.json
                    ? try RouteCatalogJSON.render(detail) : RouteCatalogText.render(detail, language: language))
        }
    }
}

/// Route lookups that fail are bad input (exit 2), like stop lookups.
func reportingRouteErrors(_ body: () throws -> Void) throws {
    try reportingLookupErrors {
        do {
            try body()
        } catch let error as RouteQueryError {
            printError("error: \(error)")
            throw ExitCode(ExitStatus.badInput)
        }
    }
}
