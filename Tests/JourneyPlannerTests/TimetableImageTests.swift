// The timetable as a binary image: what is read back plans exactly like what was written (checked against the
// brute-force oracle on random networks), and a truncated, scribbled or foreign image is refused with a reason,
// never read outside its bytes.

import JourneyPlanner
import KioskTesting
import Testing

/// Image bytes in memory, aligned as a mapped file is, kept alive while a timetable reads them.
final class ImageBytes {
    let pointer: UnsafeMutableRawPointer
    let count: Int

    init(_ bytes: [UInt8]) {
        count = bytes.count
        pointer = .allocate(byteCount: max(bytes.count, 1), alignment: 64)
        bytes.withUnsafeBytes { if let base = $0.baseAddress { pointer.copyMemory(from: base, byteCount: count) } }
    }

    var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: pointer, count: count) }

    deinit { pointer.deallocate() }
}

func imageBytes(
    _ timetable: Timetable, identity: String = "test", metadata: [UInt8] = [], extras: [[Int32]] = []
) throws -> [UInt8] {
    var bytes: [UInt8] = []
    let written = try TimetableImage.write(timetable, identity: identity, metadata: metadata, extras: extras) {
        bytes.append(contentsOf: $0)
    }
    #expect(written == bytes.count)
    return bytes
}

func readImage(_ bytes: [UInt8]) throws(TimetableImageError) -> LoadedTimetableImage {
    let owner = ImageBytes(bytes)
    return try TimetableImage.read(owner.buffer, owner: owner)
}

@Suite struct TimetableImageTests {
    /// A trip running on several days is added once with its days' shifts (`addTrips`); the compiled timetable is
    /// byte for byte the one made of the same trips shifted and added one by one.
    @Test(arguments: [UInt64(11), 12, 13, 14])
    func tripsAddedWithShiftsCompileAsTheShiftedTrips(seed: UInt64) throws {
        let net = randomNetwork(seed: seed, shape: .medium)
        let shifts = [0, 86_400, 2 * 86_400 + 300]
        var oneByOne = TimetableBuilder(stopCount: net.stopCount, minTransferSeconds: net.minTransfer)
        var shifted = TimetableBuilder(stopCount: net.stopCount, minTransferSeconds: net.minTransfer)
        var ref = 0
        for trip in net.trips {
            var instances: [(tripRef: Int, shift: Int)] = []
            for shift in shifts {
                let events = trip.events.map {
                    StopEvent(
                        stop: $0.stop, arrival: $0.arrival + shift, departure: $0.departure + shift,
                        canBoard: $0.canBoard, canAlight: $0.canAlight)
                }
                try oneByOne.addTrip(tripRef: ref, routeRef: trip.route, events: events)
                instances.append((ref, shift))
                ref += 1
            }
            try shifted.addTrips(routeRef: trip.route, events: trip.events, instances: instances)
        }
        for f in net.footpaths {
            try oneByOne.addFootpath(from: f.from, to: f.to, seconds: f.seconds)
            try shifted.addFootpath(from: f.from, to: f.to, seconds: f.seconds)
        }
        let expected = try imageBytes(oneByOne.build())
        #expect(try imageBytes(shifted.build()) == expected)
        #expect(!net.trips.isEmpty)
    }

    /// A shift that takes a trip's times out of the accepted range is refused, naming the time, and adds nothing.
    @Test func aShiftOutOfRangeIsRefused() throws {
        var builder = TimetableBuilder(stopCount: 2)
        let events = [StopEvent(stop: 0, time: 100), StopEvent(stop: 1, time: 200)]
        let tooLate = TimetableBuilder.timeRange.upperBound
        #expect(throws: TimetableError.timeOutOfRange(time: 100 + tooLate)) {
            try builder.addTrips(routeRef: 0, events: events, instances: [(0, 0), (1, tooLate)])
        }
        #expect(builder.build().tripCount == 0)
    }

    /// Random networks (after-midnight trips, overtaking, walks, station groups, pair rules, forbidden changes)
    /// through an image: the loaded timetable agrees with the oracle on every query, and with the original.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func loadedImagePlansLikeTheOriginal(seed: UInt64) throws {
        let net = randomNetwork(seed: seed &* 7919, shape: .medium)
        let original = try net.timetable()
        let loaded = try readImage(try imageBytes(original, identity: "seed \(seed)", metadata: [1, 2, 3]))
        #expect(loaded.identity == "seed \(seed)")
        #expect(loaded.metadata == [1, 2, 3])
        let timetable = loaded.timetable
        #expect(timetable.stopCount == original.stopCount)
        #expect(timetable.tripCount == original.tripCount)
        #expect(timetable.patternCount == original.patternCount)
        #expect(timetable.stopEventCount == original.stopEventCount)
        #expect(timetable.walkCount == original.walkCount)
        #expect(timetable.transferCount == original.transferCount)
        let fromImage = Planner(timetable: timetable), fromMemory = Planner(timetable: original)
        let oracle = Oracle(net)
        var rng = SplitMix64(seed: seed ^ 0xBEEF)
        var problems: [String] = []
        for q in 0..<150 {
            let query = randomQuery(&rng, stopCount: net.stopCount)
            problems += compare(fromImage, oracle, query, label: "seed \(seed) query \(q)")
            if fromImage.plan(query) != fromMemory.plan(query) {
                problems.append("query \(q): image and memory differ")
            }
        }
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }

    @Test func extraColumnsComeBackInOrder() throws {
        let original = try randomNetwork(seed: 11, shape: .small).timetable()
        let loaded = try readImage(try imageBytes(original, extras: [[1, 2, 3], [], [-7, 8]]))
        #expect(loaded.extras.map { Array($0) } == [[1, 2, 3], [], [-7, 8]])
    }

    /// Every prefix of an image (a truncated copy) is refused, naming the size.
    @Test func everyTruncationIsRefused() throws {
        let bytes = try imageBytes(try randomNetwork(seed: 5, shape: .small).timetable(), extras: [[1, 2]])
        for length in Array(0..<300) + Array(stride(from: 300, to: bytes.count, by: 7)) {
            #expect(throws: TimetableImageError.self, "length \(length)") { try readImage(Array(bytes.prefix(length))) }
        }
        #expect(throws: TimetableImageError.self) { try readImage(bytes + [0]) }
        do {
            _ = try readImage(Array(bytes.prefix(bytes.count - 1)))
            Issue.record("a truncated image was read")
        } catch {
            #expect(error.kind == .damaged)
            #expect(error.reason.contains("the file has \(bytes.count - 1)"))
        }
    }

    /// Any byte of the header changed: refused (the checksum, or a check before it).
    @Test func everyHeaderByteIsChecked() throws {
        let bytes = try imageBytes(try randomNetwork(seed: 9, shape: .small).timetable(), identity: "feed")
        let headerLength = (104 + 26 * 24 + 4 + 63) / 64 * 64
        for i in 0..<headerLength {
            var scribbled = bytes
            scribbled[i] ^= 0x5A
            #expect(throws: TimetableImageError.self, "byte \(i)") { try readImage(scribbled) }
        }
    }

    /// Garbage in the sections (indexes, offsets, times) with a valid header: either refused or, where it only
    /// changes values the planner reads without indexing by them, loaded — never a read outside the image. Every
    /// 4-byte word of the sections is set to a huge and a negative value in turn; the planner then runs a query.
    @Test func scribbledSectionsNeverCrash() throws {
        let original = try randomNetwork(seed: 21, shape: .small).timetable()
        let bytes = try imageBytes(original)
        let headerLength = (104 + 26 * 24 + 4 + 63) / 64 * 64
        var refused = 0, loaded = 0
        for word in stride(from: headerLength, to: bytes.count - 3, by: 4) {
            for value: Int32 in [Int32.max, -5, 1 << 29] {
                var scribbled = bytes
                withUnsafeBytes(of: value) { for k in 0..<4 { scribbled[word + k] = $0[k] } }
                do {
                    let image = try readImage(scribbled)
                    loaded += 1
                    _ = Planner(timetable: image.timetable).plan(
                        PlanQuery(from: 0, to: image.timetable.stopCount - 1, departure: 0, maxTransfers: 3))
                } catch {
                    refused += 1
                }
            }
        }
        #expect(refused > 0)
        #expect(loaded > 0)  // e.g. a trip reference or route, which the planner only hands back
    }

    @Test func notAnImage() {
        #expect(throws: TimetableImageError(kind: .notAnImage, reason: "not a timetable image (no SKTTIMG magic)")) {
            try readImage(Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0, count: 200))
        }
    }

    /// Recompiling only the walks and changes for other rules gives what a full build with those rules gives.
    @Test(arguments: [UInt64(3), 4, 5])
    func replacingTransfersEqualsAFullBuild(seed: UInt64) throws {
        var net = randomNetwork(seed: seed, shape: .medium)
        let base = try readImage(try imageBytes(try net.timetable())).timetable
        net.minTransfer = 37
        net.footpaths = net.footpaths.filter { $0.seconds % 2 == 0 }
        net.forbidden = []
        var rules = TimetableBuilder(stopCount: net.stopCount, minTransferSeconds: net.minTransfer)
        for f in net.footpaths { try rules.addFootpath(from: f.from, to: f.to, seconds: f.seconds) }
        for r in net.pairRules { try rules.setMinimumTransfer(from: r.from, to: r.to, seconds: r.seconds) }
        for s in 0..<net.stopCount { try rules.setStationGroup(net.groups[s], forStop: s) }
        let replaced = base.replacingTransfers(with: rules)
        let full = try net.timetable()
        #expect(replaced.minTransferSeconds == 37)
        let oracle = Oracle(net)
        var rng = SplitMix64(seed: seed)
        var problems: [String] = []
        let a = Planner(timetable: replaced), b = Planner(timetable: full)
        for q in 0..<150 {
            let query = randomQuery(&rng, stopCount: net.stopCount)
            problems += compare(a, oracle, query, label: "seed \(seed) query \(q)")
            if a.plan(query) != b.plan(query) { problems.append("query \(q): replaced and full build differ") }
        }
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }
}
