/// A cheap transform of a frame that zbar is run on again when the frame as it is yields nothing.
///
/// Each step works on the original frame (steps do not compound). A step that would not change anything
/// useful (a contrast stretch of a frame that already spans black to white, a reduction that would leave too
/// few pixels) is skipped at no scanning cost.
public enum RecoveryStep: String, Sendable, Hashable, CaseIterable {
    /// Light modules on a dark background (phone screens, inverted print): 255 − luma.
    case inverted
    /// ½ size, 2×2 box filter: very large or blurry codes, sensor noise, halftone print.
    case halfScale = "half-scale"
    /// ⅓ size, 3×3 box filter.
    case thirdScale = "third-scale"
    /// ¼ size, 4×4 box filter: codes filling a high-resolution frame.
    case quarterScale = "quarter-scale"
    /// Linear stretch of the 1st…99th luma percentiles to 0…255: washed-out or dim frames.
    case contrastStretch = "contrast-stretch"
    /// 3×3 box blur at full size: dotted or textured modules, noise.
    case blur
    /// 2× bilinear enlargement: codes whose modules are only 1–2 pixels wide.
    case doubleScale = "double-scale"
    /// Local-mean threshold to pure black and white: uneven lighting, shadows.
    case binarize
    /// Inverted at ½ size: large light-on-dark codes.
    case invertedHalfScale = "inverted-half-scale"
    /// ½ size, then a 3×3 minimum filter (dark grows by a pixel): dotted or thin modules, overexposed print.
    case boldHalfScale = "bold-half-scale"
    /// A white margin around the frame: codes cropped tight, without their quiet zone.
    case quietZone = "quiet-zone"
    /// A white margin, then 2× enlargement: tiny crops without quiet zone.
    case quietZoneDoubleScale = "quiet-zone-double-scale"

    /// The steps a `ZBarDecoder` tries by default, in order: the cheap reductions first, then the full-size ones.
    /// Measured with `DetectionSurvey` on the shared photo set (97 QR images): the direct pass reads 76 exactly,
    /// this ladder 85; leaving out any one step loses 1 or 2 images. Contrast stretch, blur, ⅓ scale, 2×
    /// enlargement and the combined steps add nothing on top of it (2× finds only images already found).
    public static let defaultLadder: [RecoveryStep] = [
        .halfScale, .quarterScale, .boldHalfScale, .inverted, .quietZone, .binarize,
    ]

    /// Pixels processed by zbar relative to the direct pass: the step's scanning cost.
    public var relativeCost: Double {
        switch self {
        case .inverted, .contrastStretch, .blur, .binarize: return 1
        case .halfScale, .invertedHalfScale, .boldHalfScale: return 0.25
        case .thirdScale: return 1.0 / 9
        case .quarterScale: return 1.0 / 16
        case .doubleScale: return 4
        case .quietZone: return 1.3
        case .quietZoneDoubleScale: return 5
        }
    }

    /// Applies the step, or returns nil when it cannot help this frame.
    func apply(to frame: LumaFrame) -> TransformedImage? {
        switch self {
        case .inverted:
            return TransformedImage(
                pixels: ImageOps.inverted(frame.pixels), width: frame.width,
                height: frame.height, mapping: .identity)
        case .halfScale: return ImageOps.boxReduce(frame, factor: 2)
        case .thirdScale: return ImageOps.boxReduce(frame, factor: 3)
        case .quarterScale: return ImageOps.boxReduce(frame, factor: 4)
        case .invertedHalfScale:
            guard var reduced = ImageOps.boxReduce(frame, factor: 2) else { return nil }
            reduced.pixels = ImageOps.inverted(reduced.pixels)
            return reduced
        case .boldHalfScale:
            guard var reduced = ImageOps.boxReduce(frame, factor: 2) else { return nil }
            reduced.pixels = ImageOps.minimum3(reduced.pixels, width: reduced.width, height: reduced.height)
            return reduced
        case .contrastStretch:
            guard let pixels = ImageOps.contrastStretched(frame.pixels) else { return nil }
            return TransformedImage(pixels: pixels, width: frame.width, height: frame.height, mapping: .identity)
        case .blur:
            return TransformedImage(
                pixels: ImageOps.boxBlur3(frame), width: frame.width, height: frame.height,
                mapping: .identity)
        case .doubleScale: return ImageOps.doubled(frame)
        case .quietZone: return ImageOps.padded(frame)
        case .quietZoneDoubleScale:
            guard let padded = ImageOps.padded(frame),
                var doubled = ImageOps.doubled(
                    LumaFrame(
                        width: padded.width, height: padded.height,
                        pixels: padded.pixels))
            else { return nil }
            doubled.mapping = PointMapping(scale: 0.5, offsetX: padded.mapping.offsetX, offsetY: padded.mapping.offsetY)
            return doubled
        case .binarize:
            return TransformedImage(
                pixels: ImageOps.binarized(frame), width: frame.width, height: frame.height,
                mapping: .identity)
        }
    }
}

/// A transformed copy of a frame and how to map its coordinates back.
struct TransformedImage {
    var pixels: [UInt8]
    var width: Int
    var height: Int
    var mapping: PointMapping
}

/// Pixel operations behind the recovery steps. Plain loops over unsafe buffers: each is one or two passes
/// over the frame, far cheaper than a zbar scan of it.
enum ImageOps {
    /// Smallest side a reduced image may have and still hold a readable code.
    static let minimumReducedSide = 48
    /// Largest side an enlarged image may have.
    static let maximumEnlargedSide = 2600

    static func inverted(_ pixels: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                for index in 0..<source.count { destination[index] = 255 &- source[index] }
            }
        }
        return output
    }

    static func boxReduce(_ frame: LumaFrame, factor: Int) -> TransformedImage? {
        let width = frame.width / factor, height = frame.height / factor
        guard width >= minimumReducedSide, height >= minimumReducedSide else { return nil }
        var output = [UInt8](repeating: 0, count: width * height)
        let area = factor * factor
        let stride = frame.width
        frame.pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                var sums = [Int](repeating: 0, count: width)
                for y in 0..<height {
                    for x in 0..<width { sums[x] = 0 }
                    for dy in 0..<factor {
                        let row = (y * factor + dy) * stride
                        for x in 0..<width {
                            var sum = 0
                            let start = row + x * factor
                            for dx in 0..<factor { sum &+= Int(source[start + dx]) }
                            sums[x] &+= sum
                        }
                    }
                    let outRow = y * width
                    for x in 0..<width { destination[outRow + x] = UInt8((sums[x] + area / 2) / area) }
                }
            }
        }
        return TransformedImage(
            pixels: output, width: width, height: height,
            mapping: PointMapping(scale: Double(factor), offsetX: 0, offsetY: 0))
    }

    /// Linear stretch of the 1st…99th percentiles to the full range; nil when the frame already spans most of
    /// it (nothing to gain) or is flat (nothing to stretch).
    static func contrastStretched(_ pixels: [UInt8]) -> [UInt8]? {
        var histogram = [Int](repeating: 0, count: 256)
        pixels.withUnsafeBufferPointer { source in
            for value in source { histogram[Int(value)] += 1 }
        }
        let total = pixels.count
        let clip = total / 100
        var low = 0, seen = 0
        while low < 255, seen + histogram[low] <= clip { seen += histogram[low]; low += 1 }
        var high = 255
        seen = 0
        while high > 0, seen + histogram[high] <= clip { seen += histogram[high]; high -= 1 }
        guard high - low >= 8 else { return nil }
        guard low > 24 || high < 231 else { return nil }
        var table = [UInt8](repeating: 0, count: 256)
        for value in 0..<256 {
            let stretched = (value - low) * 255 / (high - low)
            table[value] = UInt8(clamping: stretched)
        }
        var output = [UInt8](repeating: 0, count: total)
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                table.withUnsafeBufferPointer { lookup in
                    for index in 0..<total { destination[index] = lookup[Int(source[index])] }
                }
            }
        }
        return output
    }

    /// 3×3 box blur (separable, edges clamped).
    static func boxBlur3(_ frame: LumaFrame) -> [UInt8] {
        let width = frame.width, height = frame.height
        var horizontal = [UInt16](repeating: 0, count: width * height)
        var output = [UInt8](repeating: 0, count: width * height)
        frame.pixels.withUnsafeBufferPointer { source in
            horizontal.withUnsafeMutableBufferPointer { middle in
                for y in 0..<height {
                    let row = y * width
                    for x in 0..<width {
                        let left = Int(source[row + max(0, x - 1)])
                        let right = Int(source[row + min(width - 1, x + 1)])
                        middle[row + x] = UInt16(left + Int(source[row + x]) + right)
                    }
                }
            }
        }
        horizontal.withUnsafeBufferPointer { middle in
            output.withUnsafeMutableBufferPointer { destination in
                for y in 0..<height {
                    let above = max(0, y - 1) * width, row = y * width, below = min(height - 1, y + 1) * width
                    for x in 0..<width {
                        let sum = Int(middle[above + x]) + Int(middle[row + x]) + Int(middle[below + x])
                        destination[row + x] = UInt8((sum + 4) / 9)
                    }
                }
            }
        }
        return output
    }

    /// 3×3 minimum filter (separable, edges clamped): dark areas grow by one pixel.
    static func minimum3(_ pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
        var horizontal = [UInt8](repeating: 0, count: width * height)
        var output = [UInt8](repeating: 0, count: width * height)
        pixels.withUnsafeBufferPointer { source in
            horizontal.withUnsafeMutableBufferPointer { middle in
                for y in 0..<height {
                    let row = y * width
                    for x in 0..<width {
                        middle[row + x] = min(
                            source[row + max(0, x - 1)], source[row + x],
                            source[row + min(width - 1, x + 1)])
                    }
                }
            }
        }
        horizontal.withUnsafeBufferPointer { middle in
            output.withUnsafeMutableBufferPointer { destination in
                for y in 0..<height {
                    let above = max(0, y - 1) * width, row = y * width, below = min(height - 1, y + 1) * width
                    for x in 0..<width {
                        destination[row + x] = min(middle[above + x], middle[row + x], middle[below + x])
                    }
                }
            }
        }
        return output
    }

    /// The frame on a white margin of an eighth of its smaller side (at least 8 pixels).
    static func padded(_ frame: LumaFrame) -> TransformedImage? {
        let margin = max(16, min(frame.width, frame.height) / 5)
        let width = frame.width + 2 * margin, height = frame.height + 2 * margin
        guard width <= maximumEnlargedSide, height <= maximumEnlargedSide else { return nil }
        var output = [UInt8](repeating: 255, count: width * height)
        frame.pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                for y in 0..<frame.height {
                    let from = y * frame.width, to = (y + margin) * width + margin
                    for x in 0..<frame.width { destination[to + x] = source[from + x] }
                }
            }
        }
        return TransformedImage(
            pixels: output, width: width, height: height,
            mapping: PointMapping(scale: 1, offsetX: -margin, offsetY: -margin))
    }

    /// 2× bilinear enlargement; nil when the result would be too large.
    static func doubled(_ frame: LumaFrame) -> TransformedImage? {
        let width = frame.width * 2, height = frame.height * 2
        guard width <= maximumEnlargedSide, height <= maximumEnlargedSide else { return nil }
        let sourceWidth = frame.width, sourceHeight = frame.height
        var output = [UInt8](repeating: 0, count: width * height)
        frame.pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                for y in 0..<height {
                    // Sample centres: output pixel y covers source (y + 0.5) / 2 − 0.5 = y/2 − 0.25.
                    let fy = max(0, Double(y) / 2 - 0.25)
                    let y0 = min(Int(fy), sourceHeight - 1), y1 = min(y0 + 1, sourceHeight - 1)
                    let wy = Int((fy - Double(y0)) * 256)
                    for x in 0..<width {
                        let fx = max(0, Double(x) / 2 - 0.25)
                        let x0 = min(Int(fx), sourceWidth - 1), x1 = min(x0 + 1, sourceWidth - 1)
                        let wx = Int((fx - Double(x0)) * 256)
                        let top =
                            Int(source[y0 * sourceWidth + x0]) * (256 - wx) + Int(source[y0 * sourceWidth + x1]) * wx
                        let bottom =
                            Int(source[y1 * sourceWidth + x0]) * (256 - wx) + Int(source[y1 * sourceWidth + x1]) * wx
                        destination[y * width + x] = UInt8((top * (256 - wy) + bottom * wy + 32768) >> 16)
                    }
                }
            }
        }
        return TransformedImage(
            pixels: output, width: width, height: height,
            mapping: PointMapping(scale: 0.5, offsetX: 0, offsetY: 0))
    }

    /// Threshold against the local mean (window about an eighth of the smaller side), via an integral image.
    static func binarized(_ frame: LumaFrame) -> [UInt8] {
        let width = frame.width, height = frame.height
        let radius = max(7, min(width, height) / 16)
        var integral = [Int](repeating: 0, count: (width + 1) * (height + 1))
        var output = [UInt8](repeating: 0, count: width * height)
        frame.pixels.withUnsafeBufferPointer { source in
            integral.withUnsafeMutableBufferPointer { sums in
                for y in 0..<height {
                    var rowSum = 0
                    for x in 0..<width {
                        rowSum += Int(source[y * width + x])
                        sums[(y + 1) * (width + 1) + x + 1] = sums[y * (width + 1) + x + 1] + rowSum
                    }
                }
            }
            integral.withUnsafeBufferPointer { sums in
                output.withUnsafeMutableBufferPointer { destination in
                    for y in 0..<height {
                        let y0 = max(0, y - radius), y1 = min(height, y + radius + 1)
                        for x in 0..<width {
                            let x0 = max(0, x - radius), x1 = min(width, x + radius + 1)
                            let area = (y1 - y0) * (x1 - x0)
                            let sum =
                                sums[y1 * (width + 1) + x1] - sums[y0 * (width + 1) + x1]
                                - sums[y1 * (width + 1) + x0] + sums[y0 * (width + 1) + x0]
                            // Slightly below the mean, so flat areas go white rather than to noise.
                            let value = Int(source[y * width + x]) * area
                            destination[y * width + x] = value < sum - 4 * area ? 0 : 255
                        }
                    }
                }
            }
        }
        return output
    }
}
