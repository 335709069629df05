import Foundation
import Scanning

/// Makes the demo's recorded camera session: stop labels (images from the label generator) held up to a virtual
/// camera by a passenger — seen in perspective, tilted, out of focus while moving, with sensor noise and the
/// uneven light of a bus shelter — between views of the empty street. Deterministic: the same labels give the
/// same file.
///
/// Each label gets three stored frames: coming closer (small, tilted, motion-blurred), held (the frame the kiosk
/// reads: perspective, slight defocus, noise, a light spot and a shadow), and taken away (blurred sideways).
/// The timeline shows them for 0.3 s, 1.5 s and 0.2 s at 10 ticks a second, then the street while the passenger
/// reads the screen.
public struct DemoRecorder {
    /// A label the recorded passenger shows.
    public struct Shot {
        /// What the label's code says (checked: the held frame must decode to exactly this).
        public var payload: String
        /// What the passenger should then see, for the session file and the tests.
        public var expect: String
        /// The label as a grey image.
        public var texture: LumaFrame
        /// Keys the passenger presses before showing it (e.g. `enter` to say "this is my destination").
        public var keyBefore: String?
        /// Camera ticks of empty street after it (reading the screen).
        public var readTicks: Int

        public init(payload: String, expect: String, texture: LumaFrame, keyBefore: String? = nil, readTicks: Int) {
            self.payload = payload
            self.expect = expect
            self.texture = texture
            self.keyBefore = keyBefore
            self.readTicks = readTicks
        }
    }

    public var width = 480
    public var height = 360
    public var framesPerSecond = 10.0
    public var homeStop = "MQ09"
    public var fallbackStart = "08:00"
    /// Empty street at the start, in ticks.
    public var leadInTicks = 20

    public init() {}

    /// Renders the session into `directory` (`session.y4m` and `session.json`) and returns it. Throws when a
    /// held frame does not decode to its payload (the recording would not demonstrate anything).
    public func record(_ shots: [Shot], to directory: String) throws -> DemoSession {
        var frames: [LumaFrame] = []
        var steps: [DemoSession.Step] = []
        var labels: [DemoSession.Shown] = []
        let street = scene(variant: 0)
        frames.append(finish(street, blur: 1, motion: 0, noise: 4, seed: 11, light: 0))
        frames.append(finish(scene(variant: 1), blur: 1, motion: 0, noise: 4, seed: 12, light: 1))
        steps.append(DemoSession.Step(frame: 0, ticks: leadInTicks))
        let decoder = ZBarDecoder(configuration: .still)

        for (n, shot) in shots.enumerated() {
            let seed = UInt64(100 + 10 * n)
            let side = n % 2 == 0 ? 1.0 : -1.0
            // Coming closer: small, turned, moving.
            var approach = scene(variant: n % 2)
            composite(
                shot.texture, into: &approach,
                quad: quad(
                    centerX: 0.5 + 0.18 * side, centerY: 0.58, widthFraction: 0.42, texture: shot.texture,
                    rotation: 0.22 * side, yaw: 0.22 * side))
            // Held: large, a little turned and tilted.
            var held = scene(variant: n % 2)
            composite(
                shot.texture, into: &held,
                quad: quad(
                    centerX: 0.5 + 0.03 * side, centerY: 0.5, widthFraction: 0.8, texture: shot.texture,
                    rotation: 0.07 * side, yaw: 0.12 * side))
            // Taken away.
            var leave = scene(variant: n % 2)
            composite(
                shot.texture, into: &leave,
                quad: quad(
                    centerX: 0.5 - 0.3 * side, centerY: 0.62, widthFraction: 0.55, texture: shot.texture,
                    rotation: -0.15 * side, yaw: -0.2 * side))
            let approachFrame = finish(approach, blur: 2, motion: 9, noise: 6, seed: seed, light: n % 3)
            let heldFrame = finish(held, blur: 1, motion: 0, noise: 5, seed: seed + 1, light: n % 3)
            let leaveFrame = finish(leave, blur: 2, motion: 14, noise: 6, seed: seed + 2, light: n % 3)
            let decoded = decoder.decode(heldFrame).map(\.lossyText)
            guard decoded.contains(shot.payload) else {
                throw DemoRecordingError.unreadable(payload: shot.payload, decoded: decoded)
            }
            let base = frames.count
            frames += [approachFrame, heldFrame, leaveFrame]
            steps.append(DemoSession.Step(frame: base, ticks: 3, key: shot.keyBefore))
            labels.append(DemoSession.Shown(step: steps.count, payload: shot.payload, expect: shot.expect))
            steps.append(DemoSession.Step(frame: base + 1, ticks: 15))
            steps.append(DemoSession.Step(frame: base + 2, ticks: 2))
            steps.append(DemoSession.Step(frame: n % 2, ticks: shot.readTicks))
        }

        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let video = "session.y4m"
        try Y4MWriter.write(
            frames, to: directory + "/" + video, colourspace: .mono, frameRate: Y4MRatio(Int(framesPerSecond), 1))
        let session = DemoSession(
            video: video, framesPerSecond: framesPerSecond, steps: steps, labels: labels,
            homeStop: homeStop, fallbackStart: fallbackStart)
        try session.write(to: directory + "/session.json")
        return session
    }

    // MARK: - The scene

    /// The street behind the label: a wall in daylight, the shelter's posts and roof edge, the kerb.
    func scene(variant: Int) -> [Float] {
        var pixels = [Float](repeating: 0, count: width * height)
        for y in 0..<height {
            let fy = Float(y) / Float(height)
            for x in 0..<width {
                let fx = Float(x) / Float(width)
                var v: Float = 150 + 40 * fx - 60 * fy  // daylight from the upper right
                if fy > 0.82 { v = 95 + 10 * sin(Float(x) * 0.05) }  // the pavement
                if fy < 0.08 { v = 60 }  // the shelter's roof edge
                let post = variant == 0 ? 0.12 : 0.86
                if abs(fx - Float(post)) < 0.025 { v = 70 }  // a post
                if variant == 1, fy > 0.3, fy < 0.7, fx > 0.05, fx < 0.3 { v = 185 }  // a timetable poster
                pixels[y * width + x] = v
            }
        }
        return pixels
    }

    /// Corners (top-left, top-right, bottom-right, bottom-left) of a label of the texture's aspect, `widthFraction`
    /// of the frame wide, turned by `rotation` radians and seen at a `yaw` (the far edge shorter).
    func quad(
        centerX: Double, centerY: Double, widthFraction: Double, texture: LumaFrame, rotation: Double, yaw: Double
    ) -> [(Double, Double)] {
        let w = widthFraction * Double(width)
        let h = w * Double(texture.height) / Double(texture.width)
        let near = 1.0, far = 1.0 - abs(yaw)
        let (leftScale, rightScale) = yaw >= 0 ? (near, far) : (far, near)
        let local: [(Double, Double)] = [
            (-w / 2, -h / 2 * leftScale), (w / 2, -h / 2 * rightScale), (w / 2, h / 2 * rightScale),
            (-w / 2, h / 2 * leftScale),
        ]
        let c = cos(rotation), s = sin(rotation)
        let cx = centerX * Double(width), cy = centerY * Double(height)
        return local.map { (x, y) in (cx + x * c - y * s, cy + x * s + y * c) }
    }

    /// Draws `texture` into the quad (projective mapping, bilinear sampling).
    func composite(_ texture: LumaFrame, into pixels: inout [Float], quad p: [(Double, Double)]) {
        // Heckbert's square-to-quad mapping, inverted with the adjugate.
        let sx = p[0].0 - p[1].0 + p[2].0 - p[3].0, sy = p[0].1 - p[1].1 + p[2].1 - p[3].1
        let dx1 = p[1].0 - p[2].0, dx2 = p[3].0 - p[2].0, dy1 = p[1].1 - p[2].1, dy2 = p[3].1 - p[2].1
        let den = dx1 * dy2 - dx2 * dy1
        let g = (sx * dy2 - dx2 * sy) / den, h = (dx1 * sy - sx * dy1) / den
        let a = p[1].0 - p[0].0 + g * p[1].0, b = p[3].0 - p[0].0 + h * p[3].0, c = p[0].0
        let d = p[1].1 - p[0].1 + g * p[1].1, e = p[3].1 - p[0].1 + h * p[3].1, f = p[0].1
        // Inverse (adjugate of [[a b c][d e f][g h 1]]).
        let A = e - f * h, B = c * h - b, C = b * f - c * e
        let D = f * g - d, E = a - c * g, F = c * d - a * f
        let G = d * h - e * g, H = b * g - a * h, I = a * e - b * d
        let minX = max(0, Int(p.map(\.0).min()!.rounded(.down))),
            maxX = min(width - 1, Int(p.map(\.0).max()!.rounded(.up)))
        let minY = max(0, Int(p.map(\.1).min()!.rounded(.down))),
            maxY = min(height - 1, Int(p.map(\.1).max()!.rounded(.up)))
        guard minX <= maxX, minY <= maxY else { return }
        let tw = texture.width, th = texture.height
        texture.pixels.withUnsafeBufferPointer { tex in
            for y in minY...maxY {
                for x in minX...maxX {
                    let X = Double(x) + 0.5, Y = Double(y) + 0.5
                    let w = G * X + H * Y + I
                    let u = (A * X + B * Y + C) / w, v = (D * X + E * Y + F) / w
                    guard u >= 0, u <= 1, v >= 0, v <= 1 else { continue }
                    let tx = u * Double(tw - 1), ty = v * Double(th - 1)
                    let x0 = Int(tx), y0 = Int(ty), x1 = min(tw - 1, x0 + 1), y1 = min(th - 1, y0 + 1)
                    let fx = Float(tx - Double(x0)), fy = Float(ty - Double(y0))
                    let top = Float(tex[y0 * tw + x0]) * (1 - fx) + Float(tex[y0 * tw + x1]) * fx
                    let bottom = Float(tex[y1 * tw + x0]) * (1 - fx) + Float(tex[y1 * tw + x1]) * fx
                    // The card is printed on paper: white is never quite white under a shelter.
                    pixels[y * width + x] = (top * (1 - fy) + bottom * fy) * 0.92 + 8
                }
            }
        }
    }

    /// Light, blur, motion, noise, and quantisation to 8 bits.
    func finish(_ input: [Float], blur: Int, motion: Int, noise: Float, seed: UInt64, light: Int) -> LumaFrame {
        var pixels = input
        // Uneven light: a bright spot (sun through the roof) and a shadow falling across one side.
        let spotX = Float([0.7, 0.3, 0.55][light % 3]) * Float(width),
            spotY = Float([0.3, 0.4, 0.2][light % 3]) * Float(height)
        let radius = Float(width) * 0.35
        for y in 0..<height {
            for x in 0..<width {
                let dx = Float(x) - spotX, dy = Float(y) - spotY
                let spot = 0.3 * exp(-(dx * dx + dy * dy) / (2 * radius * radius))
                let shadow: Float =
                    light % 2 == 0 ? 0.8 + 0.2 * Float(x) / Float(width) : 1.0 - 0.25 * Float(y) / Float(height)
                pixels[y * width + x] *= (shadow + spot)
            }
        }
        if blur > 0 { pixels = boxBlur(pixels, horizontal: blur, vertical: blur) }
        if motion > 0 { pixels = boxBlur(pixels, horizontal: motion, vertical: 0) }
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        func uniform() -> Float {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Float(state % 10_000) / 10_000
        }
        var out = [UInt8](repeating: 0, count: width * height)
        for i in 0..<(width * height) {
            // Roughly Gaussian sensor noise: the sum of three uniforms.
            let n = (uniform() + uniform() + uniform() - 1.5) * 2 * noise
            out[i] = UInt8(max(0, min(255, pixels[i] + n)).rounded())
        }
        return LumaFrame(width: width, height: height, pixels: out)
    }

    func boxBlur(_ pixels: [Float], horizontal: Int, vertical: Int) -> [Float] {
        var result = pixels
        if horizontal > 0 {
            var temp = result
            for y in 0..<height {
                var sum: Float = 0
                let row = y * width
                for x in -horizontal...horizontal { sum += result[row + min(width - 1, max(0, x))] }
                for x in 0..<width {
                    temp[row + x] = sum / Float(2 * horizontal + 1)
                    sum += result[row + min(width - 1, x + horizontal + 1)] - result[row + max(0, x - horizontal)]
                }
            }
            result = temp
        }
        if vertical > 0 {
            var temp = result
            for x in 0..<width {
                var sum: Float = 0
                for y in -vertical...vertical { sum += result[min(height - 1, max(0, y)) * width + x] }
                for y in 0..<height {
                    temp[y * width + x] = sum / Float(2 * vertical + 1)
                    sum +=
                        result[min(height - 1, y + vertical + 1) * width + x] - result[max(0, y - vertical) * width + x]
                }
            }
            result = temp
        }
        return result
    }
}

public enum DemoRecordingError: Error, CustomStringConvertible {
    case unreadable(payload: String, decoded: [String])

    public var description: String {
        switch self {
        case let .unreadable(payload, decoded):
            return
                "the held frame of '\(payload)' does not decode (decoder found: \(decoded.isEmpty ? "nothing" : decoded.joined(separator: ", "))); make the label larger"
        }
    }
}
