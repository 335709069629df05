import Foundation
import KioskTesting
import Realtime
import SwiftProtobuf
import Testing

/// The decoder on the real captures (cross-checked against Google's Python bindings) and on bad input.
@Suite struct DecodingTests {
    typealias S = RealtimeSupport

    static let captures = [
        "caltrain/ct-trip-updates.pb", "caltrain/ct-vehicle-positions.pb", "caltrain/ct-service-alerts.pb",
        "bart/bart-trip-updates.pb", "bart/bart-alerts.pb",
    ]

    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missing)))
    func capturesDecodeWithKnownCounts() throws {
        try #require(SharedData.isAvailable)
        let ct = try RealtimeFeed.read(path: S.capture("caltrain/ct-trip-updates.pb")!.path)
        #expect(ct.contents.tripUpdates == 19 && ct.contents.stopTimeUpdates == 220 && ct.contents.entities == 19)
        #expect(ct.headerTimestamp == Date(timeIntervalSince1970: 1_699_405_534))
        let vp = try RealtimeFeed.read(path: S.capture("caltrain/ct-vehicle-positions.pb")!.path)
        #expect(vp.contents.vehiclePositions == 14)
        let empty = try RealtimeFeed.read(path: S.capture("caltrain/ct-service-alerts.pb")!.path)
        #expect(empty.contents.entities == 0 && empty.headerTimestamp != nil)
        let bart = try RealtimeFeed.read(path: S.capture("bart/bart-trip-updates.pb")!.path)
        #expect(bart.contents.tripUpdates == 91 && bart.contents.stopTimeUpdates == 1060)
        let alerts = try RealtimeFeed.read(path: S.capture("bart/bart-alerts.pb")!.path)
        #expect(alerts.contents.alerts == 1)
    }

    /// Google's gtfs-realtime-bindings (installed by kiosk/setup.sh) decode the same captures independently.
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missing)))
    func countsAgreeWithGooglesPythonBindings() throws {
        let shared = try #require(SharedData.folder)
        let script = """
            import json, sys
            from google.transit import gtfs_realtime_pb2 as g
            out = {}
            for path in sys.argv[1:]:
                m = g.FeedMessage(); m.ParseFromString(open(path, 'rb').read())
                es = m.entity
                out[path] = [len(es), sum(e.HasField('trip_update') for e in es), sum(len(e.trip_update.stop_time_update) for e in es),
                             sum(e.HasField('vehicle') for e in es), sum(e.HasField('alert') for e in es), m.header.timestamp,
                             sum(1 for e in es for s in e.trip_update.stop_time_update if s.arrival.HasField('time')),
                             sum(1 for e in es for s in e.trip_update.stop_time_update if s.departure.HasField('delay'))]
            print(json.dumps(out))
            """
        let paths = Self.captures.map { shared.appendingPathComponent("gtfs-rt/\($0)").path }
        // kiosk/setup.sh installs the bindings: their absence is a set-up failure, not a reason to skip.
        let result = try Programs.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script] + paths)
        try #require(result.status == 0, "python3 with gtfs-realtime-bindings (run kiosk/setup.sh): \(result.stderr)")
        let output = Data(result.stdout.utf8)
        let reference = try JSONDecoder().decode([String: [UInt64]].self, from: output)
        #expect(reference.count == paths.count)
        for path in paths {
            let feed = try RealtimeFeed.read(path: path)
            let updates = feed.tripUpdates.flatMap(\.stopTimeUpdate)
            let mine: [UInt64] = [
                feed.contents.entities, feed.contents.tripUpdates, feed.contents.stopTimeUpdates,
                feed.contents.vehiclePositions,
                feed.contents.alerts, Int(feed.message.header.timestamp),
                updates.filter(\.arrival.hasTime).count, updates.filter(\.departure.hasDelay).count,
            ].map(UInt64.init)
            #expect(mine == reference[path], "\(path)")
        }
    }

    /// Large feeds are decoded entity by entity in parallel: the result must equal one swift-protobuf call.
    @Test func parallelDecodingEqualsThePlainDecoder() throws {
        var message = TransitRealtime_FeedMessage()
        message.header.gtfsRealtimeVersion = "2.0"
        message.header.timestamp = 1_800_000_000
        message.entity = (0..<4000).map { n in
            S.tripUpdate(
                "T\(n)", (0..<8).map { S.stop(sequence: UInt32($0), id: "S\($0)", departureDelay: Int32(n % 300)) })
        }
        let bytes = try message.serializedData()
        #expect(bytes.count > 256 << 10)
        let feed = try RealtimeFeed.decode(bytes)
        let plain = try TransitRealtime_FeedMessage(serializedBytes: bytes)
        #expect(feed.message.header == plain.header && feed.message.entity.isEmpty)
        #expect(feed.tripUpdates == plain.entity.map { TripUpdateRecord($0.tripUpdate) })
        #expect(feed.contents.stopTimeUpdates == 32_000)
        // Truncated or corrupted inside an entity: still an error, never a crash.
        #expect(throws: FeedDecodingError.self) { try RealtimeFeed.decode(bytes.prefix(bytes.count - 3)) }
        var corrupted = bytes
        corrupted[corrupted.startIndex + bytes.count / 2] = 0xFF
        corrupted[corrupted.startIndex + bytes.count / 2 + 1] = 0xFF
        _ = try? RealtimeFeed.decode(corrupted)
    }

    // MARK: Bad input: an error that says what arrived, never a crash

    @Test func emptyInput() {
        #expect(throws: FeedDecodingError.empty) { try RealtimeFeed.decode(Data()) }
    }

    @Test func htmlInsteadOfProtobuf() {
        let page = Data("<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head></html>".utf8)
        do {
            _ = try RealtimeFeed.decode(page)
            Issue.record("an HTML page decoded")
        } catch {
            guard case let .notProtobuf(kind, start) = error else { Issue.record("wrong error \(error)"); return }
            #expect(kind == "an HTML page" && start.hasPrefix("<!DOCTYPE html>"))
            #expect(error.description.contains("check the URL"))
        }
    }

    @Test func jsonInsteadOfProtobuf() {
        #expect(throws: FeedDecodingError.notProtobuf(kind: "JSON", start: "{\"entity\": []}")) {
            try RealtimeFeed.decode(Data("{\"entity\": []}".utf8))
        }
    }

    @Test func truncatedFeedsAreMalformedAtEveryCut() throws {
        var message = TransitRealtime_FeedMessage()
        message.header.gtfsRealtimeVersion = "2.0"
        message.header.timestamp = 1_800_000_000
        message.entity = [RealtimeSupport.tripUpdate("T1", [RealtimeSupport.stop(sequence: 10, departureDelay: 60)])]
        let bytes = try message.serializedData()
        var rejected = 0
        for cut in 1..<bytes.count {
            do {
                _ = try RealtimeFeed.decode(bytes.prefix(cut))
            } catch {
                rejected += 1
                if case .malformed = error {
                } else if case .missingHeader = error {
                } else {
                    Issue.record("cut \(cut): \(error)")
                }
            }
        }
        // Cutting between fields can leave a shorter valid message; cutting inside one never decodes.
        #expect(rejected >= bytes.count / 2)
        #expect(try RealtimeFeed.decode(bytes).contents.stopTimeUpdates == 1)
    }

    @Test func garbageNeverCrashes() {
        var generator = SystemRandomNumberGenerator()
        var outcomes = (decoded: 0, rejected: 0)
        for length in [1, 2, 7, 64, 1000, 65_536] {
            for _ in 0..<20 {
                let bytes = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
                if (try? RealtimeFeed.decode(bytes)) != nil { outcomes.decoded += 1 } else { outcomes.rejected += 1 }
            }
        }
        #expect(outcomes.rejected > 0 && outcomes.decoded + outcomes.rejected == 120)
    }

    @Test func protobufWithoutHeader() throws {
        var entity = TransitRealtime_FeedEntity()
        entity.id = "e1"
        var message = TransitRealtime_FeedMessage()
        message.entity = [entity]
        let bytes = try message.serializedData(partial: true)
        #expect(throws: FeedDecodingError.missingHeader(byteCount: bytes.count)) { try RealtimeFeed.decode(bytes) }
    }

    @Test func oversizedFeedIsRefused() {
        #expect(throws: FeedDecodingError.tooLarge(byteCount: 2048, limit: 1024)) {
            try RealtimeFeed.decode(Data(count: 2048), sizeLimit: 1024)
        }
    }

    @Test func missingRequiredFieldsAreCountedNotFatal() throws {
        var message = TransitRealtime_FeedMessage()
        message.header.timestamp = 1_800_000_000  // no gtfs_realtime_version
        var entity = TransitRealtime_FeedEntity()
        entity.alert.headerText.translation = []  // no id
        message.entity = [entity]
        let feed = try RealtimeFeed.decode(try message.serializedData(partial: true))
        #expect(feed.oddities["header without gtfs_realtime_version"] == 1)
        #expect(feed.oddities["entity without its required id"] == 1)
        #expect(feed.contents.alerts == 1)
    }
}
