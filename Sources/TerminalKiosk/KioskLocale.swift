import Foundation
import KioskConfiguration
import TransitModel
import TransitStore

/// Where the kiosk's passenger locale is decided at start-up and said: the terminal kiosk (`KioskApp`), the web
/// service (`kiosk serve`) and `kiosk doctor` all ask `PassengerLocale.decide` the same way.
public enum KioskLocale {
    /// `config` with its locale decided against the route database at `path`: the config's language and locale
    /// first, then the feed's (a database that does not open leaves the config's own choice, then Spanish).
    public static func deciding(_ config: KioskConfig, databasePath path: String) -> KioskConfig {
        var config = config
        config.decidePassengerLocale(feed: (try? RouteDatabase(path: path))?.feedLocaleFacts())
        return config
    }

    /// The start-up log line: "passenger locale: language en (feed_info.feed_lang en), US conventions: …".
    public static func logLine(_ config: KioskConfig) -> String {
        "passenger locale: \(config.passengerLocale)"
    }
}

extension KioskDoctor {
    /// Which language and conventions passengers get, and why (`kiosk doctor`'s "locale" line).
    public static func checkLocale(_ config: KioskConfig, databasePath path: String) -> [DoctorCheck] {
        let decided = KioskLocale.deciding(config, databasePath: path).passengerLocale
        var checks = [DoctorCheck(area: "locale", status: .ok, detail: decided.description)]
        if decided.languageSource.hasPrefix("default: the feed") {
            checks.append(
                DoctorCheck(
                    area: "locale", status: .warning,
                    detail: "the feed's language is neither es nor en: the kiosk speaks Spanish",
                    fix: "set language = \"en\" (or \"es\") in the config to choose"))
        }
        return checks
    }
}
