import Foundation
import KioskTesting
import Testing
import TransitModel
import TransitStore
import TripPlanning

/// Journeys on the sample network, checked by hand against its timetable (Metro every 4 min 06:30–09:00 from
/// Quitumbe, 35:30 end to end; Trolebús and Ecovía trips as in stop_times.txt).
@Suite struct PlanTests {
    static let sample = Result { try RouteDatabase(path: try SampleNetwork.databasePath()) }

    var db: RouteDatabase { get throws { try Self.sample.get() } }

    func at(_ text: String) throws -> Date { try #require(LocalTime.parse(text, in: try db.timeZone)) }

    func plan(
        _ from: String, _ to: String, _ time: String, maxTransfers: Int = 3, rules: PlanningRules = PlanningRules()
    ) throws -> JourneyPlan {
        let db = try db
        return try db.plan(
            from: try db.resolveEndpoint(from), to: try db.resolveEndpoint(to), at: try at(time),
            maxTransfers: maxTransfers, rules: rules)
    }

    func clock(_ date: Date) throws -> String { LocalTime.clock(date, in: try db.timeZone) }

    @Test func directMetroRideLeavesAtTheNextTrain() throws {
        let plan = try plan("1011", "1151", "2026-11-25T08:00")
        #expect(plan.options.count == 1)
        let option = try #require(plan.options.first)
        #expect(try clock(option.departure) == "08:02" && option.transfers == 0)
        #expect(LocalTime.iso8601(option.arrival, in: try db.timeZone) == "2026-11-25T08:37:30-05:00")
        #expect(option.legs.count == 1)
        let ride = option.legs[0]
        #expect(ride.kind == .ride && ride.route?.id == "MQ-L1" && ride.headsign == "El Labrador" && ride.stops == 14)
        #expect(ride.from.code == "1011" && ride.to.code == "1151" && ride.serviceDate == "2026-11-25")
    }

    @Test func transferWithAWalkBetweenLines() throws {
        let plan = try plan("1011", "2013", "2026-11-25T08:00")
        let option = try #require(plan.options.first)
        #expect(option.transfers == 1)
        #expect(option.legs.map(\.kind) == [.ride, .walk, .ride])
        #expect(option.legs.first?.route?.id == "MQ-L1" && option.legs.last?.route?.id == "EP-TB")
        #expect(option.legs.last?.to.code == "2013")
        // Each leg starts after the previous one ends.
        for (a, b) in zip(option.legs, option.legs.dropFirst()) { #expect(a.arrival <= b.departure) }
    }

    @Test func optionsAreParetoAndLeaveAsLateAsPossible() throws {
        let plan = try plan("Cumbayá", "1121", "2026-11-25T07:00", maxTransfers: 4)
        #expect(!plan.options.isEmpty && plan.options.count <= 3)
        for (a, b) in zip(plan.options, plan.options.dropFirst()) {
            #expect(a.arrival < b.arrival && a.transfers > b.transfers)  // better arrival only with more transfers
        }
        // Leaving later than the chosen departure cannot arrive as early with as few transfers.
        let best = plan.options[0]
        let later = try self.plan(
            "Cumbayá", "1121",
            LocalTime.iso8601(best.departure.addingTimeInterval(1), in: try db.timeZone).prefix(19).description,
            maxTransfers: best.transfers)
        #expect(later.options.allSatisfy { $0.arrival > best.arrival })
    }

    @Test func forbiddenTransferAtLaAlamedaIsNeverUsed() throws {
        // transfers.txt forbids MQ08A/MQ08B ↔ TB-ALAMEDA although they are 180–198 m apart.
        let db = try db
        let forbidden: Set<String> = ["MQ08A", "MQ08B", "TB-ALAMEDA"]
        for (from, to) in [("1011", "2010"), ("2001", "1081"), ("Quitumbe", "Colón")] {
            let plan = try self.plan(from, to, "2026-11-25T08:00")
            for option in plan.options {
                for (i, leg) in option.legs.enumerated() where leg.kind == .walk && i > 0 && i < option.legs.count - 1 {
                    #expect(
                        !(forbidden.contains(leg.from.id) && forbidden.contains(leg.to.id) && leg.from.id != leg.to.id),
                        "\(from)→\(to) walks \(leg.from.id)→\(leg.to.id)")
                }
            }
        }
        _ = db
    }

    @Test func lateEveningJourneyUsesTheTripPastMidnight() throws {
        let plan = try plan("3006", "3007", "2026-11-27T23:50")
        let option = try #require(plan.options.first)
        #expect(option.legs.first?.tripID == "EV-LAB-0-2340" && option.legs.first?.serviceDate == "2026-11-27")
        #expect(LocalTime.iso8601(option.arrival, in: try db.timeZone) == "2026-11-28T00:25:00-05:00")
    }

    @Test func nameSearchIgnoresAccentsCaseAndPunctuation() throws {
        let db = try db
        #expect(try db.searchStops("cumbaya").first?.stop.name == "Cumbayá")
        #expect(try db.searchStops("CUMBAYÁ!").first?.rank == .exact)
        let lay = try db.searchStops("la y")
        #expect(lay.first?.stop.name == "La Y" && lay.first?.rank == .exact)
        #expect(try db.resolveEndpoint("la y").stop.name == "La Y")
        #expect(try db.searchStops("lay").first.map { ($0.stop.name, $0.rank) } ?? ("", .contains) == ("La Y", .exact))
        #expect(try db.searchStops("elejido").first?.stop.name == "El Ejido")
        // A station stands for its platforms: one match, not one per platform.
        #expect(try db.searchStops("quitumbe").filter { $0.rank == .exact }.count == 1)
        #expect(try db.resolveEndpoint("Quitumbe").platforms.count >= 2)
    }

    @Test func ambiguousNamesListCandidatesWithCodes() throws {
        let db = try db
        #expect {
            try db.resolveEndpoint("universidad")
        } throws: { error in
            "\(error)".contains("matches several stops") && "\(error)".contains("[4008]")
                && "\(error)".contains("give a stop code")
        }
    }

    @Test func unreachableSaysSoAndShowsRoutesAtBothEnds() throws {
        let plan = try plan(
            "5007", "0704", "2026-11-25T08:00", maxTransfers: 0, rules: PlanningRules(walkRadiusMeters: 0))
        #expect(plan.options.isEmpty)
        #expect(plan.routesAtOrigin.map(\.id) == ["EP-A1"])
        #expect(plan.routesAtDestination.map(\.id) == ["EP-A3"])
    }

    @Test func badInputIsRefusedClearly() throws {
        #expect(throws: LookupError.self) { try plan("1011", "Quitumbe", "2026-11-25T08:00") }  // a platform of the same station
        #expect(throws: LookupError.self) { try plan("1011", "1151", "2026-11-25T08:00", maxTransfers: -1) }
        #expect(throws: LookupError.self) { try plan("1011", "1151", "2026-11-25T08:00", maxTransfers: 99) }
        #expect(throws: LookupError.self) {
            try plan("1011", "1151", "2026-11-25T08:00", rules: PlanningRules(walkRadiusMeters: 50_000))
        }
        #expect(throws: LookupError.self) { try plan("1011", "1151", "2031-01-01T08:00") }
        #expect(throws: LookupError.self) { try plan("1011", "no such place at all", "2026-11-25T08:00") }
        #expect(throws: LookupError.self) { try plan("1011", String(repeating: "a", count: 5000), "2026-11-25T08:00") }
    }
}
