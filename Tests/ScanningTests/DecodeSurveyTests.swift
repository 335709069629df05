import Foundation
import KioskTesting
import Testing
@testable import Scanning

@Suite struct DecodeSurveyTests {
    /// What `zbarimg` 0.23.92 decodes exactly on the four QR folders (shared/data/README.md).
    static let zbarimgCount = 67

    /// The shared photo set, `../shared/data/qr`.
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missing)))
    func findsAtLeastAsManyAsZbarimg() throws {
        let folder = try #require(SharedData.folder).appendingPathComponent("qr").path
        let report = DetectionSurvey.run(folder: folder, subfolders: DetectionSurvey.sharedQRFolders,
                                         evaluate: [.direct])
        #expect(report.results.count >= 97)
        #expect(report.results.allSatisfy { $0.loadError == nil })
        let direct = report.hits(pass: .direct)
        // zbar itself, with our encoding guess, already matches zbarimg; the ladder adds to it.
        #expect(direct >= Self.zbarimgCount)
        #expect(report.ladderHits >= direct)
        #expect(report.ladderHits >= 80, "default ladder decoded \(report.ladderHits) of 97")
        #expect(report.results.filter(\.hit).allSatisfy { $0.foundBy != nil })
    }

    @Test func surveyOfASyntheticFolder() throws {
        let directory = DecodeFixtures.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/set", withIntermediateDirectories: true)
        // Two readable codes (one inverted), one image without a code, one image without expectation.
        let first = DecodeFixtures.frame(withQR: "first", width: 200, height: 200, x: 20, y: 20, module: 4)
        let second = DecodeFixtures.frame(withQR: "second", width: 200, height: 200, x: 20, y: 20, module: 4, inverted: true)
        let blank = DecodeFixtures.sceneWithoutCode(width: 120, height: 90)
        for (name, frame, text) in [("a", first, "first"), ("b", second, "second"), ("c", blank, "nothing")] {
            let pgm = Array("P5 \(frame.width) \(frame.height) 255\n".utf8) + frame.pixels
            DecodeFixtures.write(pgm, to: "\(directory)/set/\(name).pgm")
            DecodeFixtures.write(Array(text.utf8), to: "\(directory)/set/\(name).txt")
        }
        DecodeFixtures.write(Array("P5 1 1 255\n\u{0}".utf8), to: "\(directory)/set/no-expectation.pgm")
        DecodeFixtures.write(Array("metadata".utf8), to: "\(directory)/set/a.result.txt")
        let report = DetectionSurvey.run(folder: directory, evaluate: [.direct, .recovery(.inverted)])
        #expect(report.results.map(\.sample.name) == ["set/a.pgm", "set/b.pgm", "set/c.pgm"])
        #expect(report.ladderHits == 2)
        #expect(report.hits(pass: .direct) == 1)
        #expect(report.hits(ladder: [.direct, .recovery(.inverted)]) == 2)
        #expect(report.results[1].foundBy == .recovery(.inverted))
    }
}
