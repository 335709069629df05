import Testing

@testable import Scanning

@Suite struct DecodeChangeDetectorTests {
    let scene = DecodeFixtures.sceneWithoutCode()

    func noisy(_ frame: LumaFrame, seed: UInt64) -> LumaFrame {
        var state = seed
        var copy = frame
        for index in copy.pixels.indices {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            copy.pixels[index] = UInt8(clamping: Int(copy.pixels[index]) + Int(state >> 61) - 4)
        }
        return copy
    }

    @Test func staticSceneStopsBeingDecoded() {
        var detector = FrameChangeDetector(configuration: .init(settleFrames: 3, refreshInterval: 0))
        var decoded = 0
        for index in 0..<100 where detector.shouldDecode(noisy(scene, seed: UInt64(index))) { decoded += 1 }
        // The first frame and the settling frames, then nothing: sensor noise is not change.
        #expect(decoded == 4)
    }

    @Test func codeBroughtInAndHeldStillIsDecoded() {
        var detector = FrameChangeDetector(configuration: .init(settleFrames: 3, refreshInterval: 0))
        for index in 0..<20 { _ = detector.shouldDecode(noisy(scene, seed: UInt64(index))) }
        #expect(detector.lastVerdict == .unchanged)
        // A code moves in over a few frames, then stays.
        var verdicts: [FrameChangeDetector.Verdict] = []
        for step in 0..<3 {
            var frame = scene
            paste(square: 120, at: (60 + 40 * step, 100), into: &frame)
            verdicts.append(detector.judge(frame))
        }
        var held = scene
        paste(square: 120, at: (140, 100), into: &held)
        for index in 0..<10 { verdicts.append(detector.judge(noisy(held, seed: UInt64(100 + index)))) }
        #expect(Array(verdicts.prefix(3)) == [.moving, .moving, .moving])
        #expect(Array(verdicts[3..<6]) == [.settling, .settling, .settling])
        #expect(verdicts[6...].allSatisfy { $0 == .unchanged })
    }

    @Test func smallChangeInACornerCounts() {
        var detector = FrameChangeDetector()
        _ = detector.shouldDecode(scene)
        for _ in 0..<10 { _ = detector.shouldDecode(scene) }
        var frame = scene
        paste(square: 48, at: (590, 430), into: &frame)
        #expect(detector.judge(frame) == .moving)
    }

    @Test func slowDriftIsEventuallyDecoded() {
        var detector = FrameChangeDetector(configuration: .init(settleFrames: 0, refreshInterval: 0))
        _ = detector.shouldDecode(scene)
        var verdicts: [FrameChangeDetector.Verdict] = []
        for step in 1...30 {
            // One luma level brighter per frame: never a change between two frames.
            var frame = scene
            for index in frame.pixels.indices { frame.pixels[index] = UInt8(clamping: Int(frame.pixels[index]) + step) }
            verdicts.append(detector.judge(frame))
        }
        #expect(!verdicts.contains(.moving))
        #expect(verdicts.contains(.drifted))
    }

    @Test func refreshIntervalForcesADecode() {
        var detector = FrameChangeDetector(configuration: .init(settleFrames: 0, refreshInterval: 10))
        var decodedAt: [Int] = []
        for index in 0..<35 where detector.shouldDecode(scene) { decodedAt.append(index) }
        #expect(decodedAt == [0, 10, 20, 30])
    }

    @Test func sizeChangeCountsAsFirstFrame() {
        var detector = FrameChangeDetector()
        _ = detector.shouldDecode(scene)
        #expect(detector.judge(DecodeFixtures.sceneWithoutCode(width: 320, height: 240)) == .firstFrame)
        #expect(detector.judge(LumaFrame(width: 2, height: 2, pixels: [0, 0, 0, 0])) == .firstFrame)
    }

    func paste(square side: Int, at origin: (Int, Int), into frame: inout LumaFrame) {
        for y in origin.1..<min(frame.height, origin.1 + side) {
            for x in origin.0..<min(frame.width, origin.0 + side) {
                frame.pixels[y * frame.width + x] = ((x / 8 + y / 8) % 2 == 0) ? 10 : 245
            }
        }
    }
}
