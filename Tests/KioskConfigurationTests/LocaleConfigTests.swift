import Foundation
import Testing
import TransitModel

@testable import KioskConfiguration

/// The config's `language` and `locale`, and the locale decided from them and the feed.
@Suite struct LocaleConfigTests {
    static let usFeed = PassengerLocale.FeedFacts(agencyLangs: ["en"], timeZone: "America/New_York")

    @Test func withoutLanguageTheFeedDecides() throws {
        var config = try KioskConfigFile.parse("home_stop = \"1091\"\n", file: "kiosk.toml")
        #expect(config.configuredLanguage == nil && config.language == .es)
        config.decidePassengerLocale(feed: Self.usFeed)
        #expect(config.language == .en && config.passengerLocale.clock == .twelveHour)
        #expect(config.passengerLocale.languageSource == "agency_lang en")
    }

    @Test func theConfiguredLanguageAndLocaleWin() throws {
        var config = try KioskConfigFile.parse("language = \"es\"\nlocale = \"es_EC\"\n", file: "kiosk.toml")
        #expect(config.locale?.region == "EC")
        config.decidePassengerLocale(feed: Self.usFeed)
        #expect(config.language == .es && config.passengerLocale.units == .metric)
        #expect(config.passengerLocale.regionSource == "config locale es_EC")
        // `--lang` wins over both.
        config.decidePassengerLocale(commandLine: .en, feed: Self.usFeed)
        #expect(config.language == .en && config.passengerLocale.languageSource == "--lang")
        // A locale's language counts when `language` is left out.
        var english = try KioskConfigFile.parse("locale = \"en_GB\"\n", file: "kiosk.toml")
        #expect(english.language == .en)
        english.decidePassengerLocale(feed: PassengerLocale.FeedFacts(feedLang: "es", timeZone: "America/Guayaquil"))
        #expect(english.language == .en && english.passengerLocale.region == "GB")
    }

    @Test func settingTheLanguageConfiguresIt() {
        var config = KioskConfig()
        config.language = .en
        config.decidePassengerLocale(feed: PassengerLocale.FeedFacts(feedLang: "es"))
        #expect(config.language == .en && config.configuredLanguage == .en)
    }

    @Test(arguments: ["fr_FR", "en_USA", "english", ""])
    func aBadLocaleIsRefusedNamingTheKeyAndValue(value: String) {
        #expect {
            _ = try KioskConfigFile.parse("locale = \"\(value)\"\n", file: "kiosk.toml")
        } throws: { error in
            let text = "\(error)"
            return text.contains("locale") && text.contains("not \"\(value)\"") && text.contains("en_US")
        }
    }
}
