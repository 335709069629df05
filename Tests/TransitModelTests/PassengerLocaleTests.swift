import Foundation
import Testing

@testable import TransitModel

/// The passenger locale's rule (`PassengerLocale.decide`) and its formatting.
@Suite struct PassengerLocaleTests {
    typealias Facts = PassengerLocale.FeedFacts

    static let carta = Facts(feedLang: "EN", agencyLangs: ["EN"], timeZone: "America/New_York")

    @Test func theFeedsLanguageWithoutAConfiguredOne() {
        let locale = PassengerLocale.decide(feed: Self.carta)
        #expect(locale.language == .en)
        #expect(locale.languageSource == "feed_info.feed_lang en")
        #expect(locale.region == "US" && locale.regionSource == "agency_timezone America/New_York")
        #expect(locale.clock == .twelveHour && locale.dates == .monthDayYear && locale.units == .imperial)
    }

    @Test func agencyLangWhenFeedInfoHasNone() {
        let locale = PassengerLocale.decide(feed: Facts(agencyLangs: ["", "en-US"], timeZone: "America/Chicago"))
        #expect(locale.language == .en && locale.languageSource == "agency_lang en")
        // feed_lang `mul`: its default_lang is the language for riders whose own is unknown.
        let multilingual = PassengerLocale.decide(feed: Facts(feedLang: "mul", defaultLang: "es", agencyLangs: ["en"]))
        #expect(multilingual.language == .es && multilingual.languageSource.hasPrefix("feed_info.default_lang es"))
    }

    @Test func aLanguageWeDoNotSpeakKeepsSpanishWithTheCountrysConventions() {
        let vilnius = PassengerLocale.decide(
            feed: Facts(feedLang: "lt", agencyLangs: ["lt"], timeZone: "Europe/Vilnius"))
        #expect(vilnius.language == .es)
        #expect(vilnius.languageSource.hasPrefix("default: the feed names no language"))
        #expect(vilnius.region == "LT" && vilnius.clock == .twentyFourHour && vilnius.dates == .iso)
        #expect(vilnius.units == .metric)
        // A feed in lt whose agency declares en: English.
        #expect(PassengerLocale.decide(feed: Facts(feedLang: "lt", agencyLangs: ["en"])).language == .en)
        #expect(PassengerLocale.decide().language == .es && PassengerLocale.decide().languageSource == "default")
    }

    @Test func commandLineThenConfigThenFeed() {
        let setting = PassengerLocale.Setting("es_EC")
        #expect(PassengerLocale.decide(commandLine: .es, configLanguage: .en, feed: Self.carta).language == .es)
        #expect(PassengerLocale.decide(configLanguage: .es, feed: Self.carta).languageSource == "config language")
        let fromLocale = PassengerLocale.decide(configLocale: setting, feed: Self.carta)
        #expect(fromLocale.language == .es && fromLocale.region == "EC")
        #expect(fromLocale.regionSource == "config locale es_EC" && fromLocale.clock == .twentyFourHour)
        // The configured language wins over the locale's; the locale still gives the conventions.
        let both = PassengerLocale.decide(configLanguage: .en, configLocale: setting, feed: Self.carta)
        #expect(both.language == .en && both.region == "EC" && both.units == .metric)
        // A country alone: the feed still gives the language.
        let country = PassengerLocale.decide(configLocale: PassengerLocale.Setting("GB"), feed: Self.carta)
        #expect(country.language == .en && country.region == "GB" && country.dates == .dayMonthYear)
    }

    @Test func localeSettingsAreReadOrRefused() {
        #expect(PassengerLocale.Setting("en_US")?.language == .en)
        #expect(PassengerLocale.Setting("en-US")?.region == "US")
        #expect(PassengerLocale.Setting("es")?.language == .es && PassengerLocale.Setting("es")?.region == nil)
        #expect(PassengerLocale.Setting("US")?.region == "US" && PassengerLocale.Setting("US")?.language == nil)
        for bad in ["fr_FR", "en_USA", "", "en_", "english", "e1_US", "en_US_POSIX"] {
            #expect(PassengerLocale.Setting(bad) == nil, "\(bad)")
        }
    }

    @Test func countriesOfTimeZones() {
        #expect(PassengerLocale.country(ofTimeZone: "America/New_York") == "US")
        #expect(PassengerLocale.country(ofTimeZone: "America/Guayaquil") == "EC")
        #expect(PassengerLocale.country(ofTimeZone: "Europe/Madrid") == "ES")
        #expect(PassengerLocale.country(ofTimeZone: "Etc/UTC") == nil)
    }

    /// Zones only the system's tz tables name (not the built-in few), read from their last field of a line.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/zone.tab"), "no tz tables"))
    func countriesFromTheTzTables() {
        #expect(PassengerLocale.country(ofTimeZone: "America/Argentina/Buenos_Aires") == "AR")
        #expect(PassengerLocale.country(ofTimeZone: "Asia/Kolkata") == "IN")
        #expect(PassengerLocale.country(ofTimeZone: "Pacific/Auckland") == "NZ")
        #expect(PassengerLocale.country(ofTimeZone: "Europe/Zurich") == "CH")
    }

    @Test func clocksDatesAndDistances() throws {
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        let afternoon = try #require(LocalTime.parse("2020-11-12T15:05", in: zone))
        let midnight = try #require(LocalTime.parse("2020-11-12T00:10", in: zone))
        let us = PassengerLocale(language: .en, region: "US")
        #expect(us.clock(afternoon, in: zone) == "3:05 PM" && us.clock(midnight, in: zone) == "12:10 AM")
        #expect(us.speaking(.es).clock(afternoon, in: zone) == "3:05 p. m.")
        #expect(us.clock(serviceSeconds: 25 * 3600 + 600) == "1:10 AM")
        let date = try #require(ServiceDate(parsing: "2020-11-12"))
        #expect(us.date(date) == "11/12/2020")
        #expect(PassengerLocale(language: .es, region: "EC").date(date) == "12/11/2020")
        #expect(PassengerLocale(language: .es, region: "DE").date(date) == "12.11.2020")
        #expect(PassengerLocale(language: .es, region: "LT").date("20201112") == "2020-11-12")
        #expect(PassengerLocale.standard.date(date) == "2020-11-12")
        let spain = PassengerLocale(language: .es, region: "ES")
        #expect(spain.clock(afternoon, in: zone) == "15:05" && spain.clock(serviceSeconds: 25 * 3600) == "01:00")
        #expect(spain.distance(meters: 82) == "82 m" && spain.distance(meters: 1200) == "1200 m")
        #expect(us.distance(meters: 82) == "270 ft")
        #expect(us.distance(meters: 400) == "0.2 mi" && us.distance(meters: 1609) == "1 mi")
        #expect(us.speaking(.es).distance(meters: 2414) == "1,5 mi")
        #expect(us.description.contains("language en") && us.description.contains("US conventions"))
    }
}
