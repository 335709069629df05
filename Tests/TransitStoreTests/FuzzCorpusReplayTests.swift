import Foundation
import KioskTesting
import Testing

/// The fuzzers' seed corpus (kiosk/fuzz/corpus), and any crash input added there, replayed through the same
/// targets on every test run by the `kiosk-fuzz` binary built without the fuzzer: a regression fails here even
/// where libFuzzer is not run.
@Suite struct FuzzCorpusReplayTests {
    @Test(arguments: ["csv", "payload", "config", "image", "realtime", "realtime-structured"])
    func corpusReplaysWithoutCrashing(_ target: String) throws {
        let corpus = Repository.root.appendingPathComponent("kiosk/fuzz/corpus/\(target)")
        let count = try FileManager.default.contentsOfDirectory(atPath: corpus.path).count
        #expect(count >= 3, "the \(target) corpus should hold seeds")
        let result = try Programs.run(
            Programs.productsDirectory.appendingPathComponent("kiosk-fuzz"), [target, corpus.path])
        #expect(result.status == 0 && result.signal == nil, "\(result)")
        #expect(result.stdout == "kiosk-fuzz \(target): \(count) inputs replayed\n")
    }
}
