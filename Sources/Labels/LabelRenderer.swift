import CCairo
import Foundation
import StopCodes
import SystemSupport
import TransitModel

/// Output formats. PDF is vector and multi-page (what printers and `lp` take); SVG is vector, one page per
/// file (for design tools and sign makers); PNG is raster at a chosen resolution, one page per file (for
/// label printers that take images).
public enum LabelFormat: String, Sendable, Hashable, CaseIterable {
    case pdf, svg, png
}

/// How a batch of labels is made.
public struct LabelOptions: Sendable, Hashable {
    public var layout: LabelLayout
    public var format: LabelFormat
    /// PNG resolution (dots per inch); ignored by the vector formats.
    public var dpi: Int
    public var errorCorrection: QRErrorCorrection
    /// Adds a Code 128 barcode of the stop code under the route badges.
    public var barcode: Bool
    public var texts: LabelTexts
    /// PDF title, and the first part of the page footer on sheets.
    public var title: String
    /// A proof copy: allowed with the placeholder address (`PlaceholderAddress`), and marked in red on every label
    /// and sheet as not for posting.
    public var proof: Bool

    public init(
        layout: LabelLayout = .a4, format: LabelFormat = .pdf, dpi: Int = 300,
        errorCorrection: QRErrorCorrection = .medium,
        barcode: Bool = false, texts: LabelTexts = LabelTexts(), title: String = "StopKiosk stop labels",
        proof: Bool = false
    ) {
        self.proof = proof
        self.layout = layout
        self.format = format
        self.dpi = dpi
        self.errorCorrection = errorCorrection
        self.barcode = barcode
        self.texts = texts
        self.title = title
    }

    public static let dpiRange = 72...1200
}

/// What a run produced: the files, and a manifest of the labels in them.
public struct LabelRun: Sendable {
    public struct Entry: Sendable, Hashable {
        public var stopID: String
        public var stopCode: String?
        /// The value the template filled in (printed large, typed at the kiosk).
        public var value: String
        public var payload: String
        /// 1-based page, and the file holding it.
        public var page: Int
        public var file: String
        public var qrVersion: Int
        public var moduleMM: Double
    }

    public struct Warning: Sendable, Hashable, CustomStringConvertible {
        public var stopID: String
        public var message: String
        public var description: String { "stop \(Terminal.clean(stopID, 60)): \(message)" }
    }

    /// Seconds spent in each step, for the benchmark. `verify` and `write` run at the same time, on two cores.
    public struct Timings: Sendable, Hashable {
        public var prepare = 0.0, compose = 0.0, verify = 0.0, write = 0.0
    }

    public var files: [String]
    public var pages: Int
    public var labels: [Entry]
    public var warnings: [Warning]
    public var timings = Timings()
}

/// Makes stop labels: payloads and QR symbols, layout, the read-back check, and the output file.
///
/// ```swift
/// let renderer = LabelRenderer(options: LabelOptions(layout: .a4, format: .pdf))
/// let run = try renderer.run(stops: stops, payloads: LabelPayloadBuilder(template: template, feedID: "carta"),
///                            output: "labels.pdf")
/// ```
///
/// Not `Sendable`: it owns cairo font faces and zbar scanners. Make one per thread; it spreads its own work over
/// the cores (payloads and QR symbols in parallel, the read-back check alongside the drawing of the document).
public final class LabelRenderer {
    public let options: LabelOptions
    let fonts = FontSet()
    let measurer: TextMeasurer
    let composer: LabelComposer
    let geometry: LabelGeometry
    /// Tests use this to damage labels after layout, to see the read-back check refuse them.
    var tamper: ((inout ComposedLabel) -> Void)?
    /// Called as labels are read back (the slow step): labels checked so far of all. Display is the caller's.
    public var progress: (@Sendable (ProgressUpdate) -> Void)?

    public init(options: LabelOptions) {
        self.options = options
        measurer = TextMeasurer(fonts: fonts)
        composer = LabelComposer(measurer: measurer, texts: options.texts)
        geometry = LabelGeometry(widthMM: options.layout.labelWidth, heightMM: options.layout.labelHeight)
    }

    /// Everything: prepare and check every stop, lay the labels out, read each back, write the file. Throws,
    /// leaving nothing at `output`, if any stop, the layout or any read-back fails.
    ///
    /// The document is drawn into a temporary file beside `output` while the labels are read back on another
    /// core; it is renamed to `output` only once every label has read back, and removed otherwise.
    public func run(stops: [LabelStop], payloads: LabelPayloadBuilder, output: String) throws(LabelError) -> LabelRun {
        guard !stops.isEmpty else { throw .invalidRequest("no stops to label") }
        guard LabelOptions.dpiRange.contains(options.dpi) else {
            throw .invalidRequest(
                "--dpi must be between \(LabelOptions.dpiRange.lowerBound) and \(LabelOptions.dpiRange.upperBound) (got \(options.dpi))"
            )
        }
        try AtomicOutput.validate(output)
        var timings = LabelRun.Timings()
        var clock = DispatchTime.now().uptimeNanoseconds
        func lap() -> Double {
            let now = DispatchTime.now().uptimeNanoseconds
            defer { clock = now }
            return Double(now - clock) / 1e9
        }
        let prepared = try prepare(stops, payloads: payloads)
        timings.prepare = lap()
        let composed = compose(prepared)
        timings.compose = lap()

        // Two threads, each with its own cairo font faces and zbar scanner: one draws the document while the other
        // reads labels back, and the first joins the read-back once the document is drawn (the labels are taken
        // from a shared counter, so neither core idles while the other has work). The results are handed over
        // through boxes and slots that exactly one thread writes, read only after concurrentPerform has joined.
        let options = self.options
        let progress = self.progress
        let queue = ReadBackQueue(count: composed.count)
        let drawn = Handoff<Result<(LabelRun, [AtomicFileWriter]), LabelError>>()
        let verifySeconds = Handoff<Double>(), writeSeconds = Handoff<Double>()
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            let start = DispatchTime.now().uptimeNanoseconds
            if part == 0 {
                let writer = DocumentWriter(options: options, fonts: FontSet())
                drawn.value = Result { () throws(LabelError) in try writer.draw(composed, to: output) }
                writeSeconds.value = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            }
            let checker = ReadBackChecker(fonts: FontSet())
            while let index = queue.next() {
                queue.finish(index, checker.check(composed[index])) { done in
                    progress?(
                        ProgressUpdate(
                            stage: "labels read back", done: done, unit: "labels", workDone: Int64(done),
                            workTotal: Int64(composed.count)))
                }
            }
            if part == 1 { verifySeconds.value = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        }
        let failures = queue.failures
        _ = lap()
        timings.verify = verifySeconds.value ?? 0
        timings.write = writeSeconds.value ?? 0
        // On failure the temporary files are removed when `drawn` goes (AtomicFileWriter's deinit).
        if !failures.isEmpty { throw .readBackFailed(failures) }
        guard let result = drawn.value else { throw .renderingFailed(reason: "the document was not drawn") }
        var (run, pending) = try result.get()
        for file in pending { try file.commitLabels() }
        run.timings = timings
        return run
    }

    // MARK: - Steps

    /// Payload, QR symbol and barcode of every stop, and the layout's size limits. Every stop's problems are
    /// collected before throwing.
    public func prepare(_ stops: [LabelStop], payloads: LabelPayloadBuilder) throws(LabelError) -> [PreparedLabel] {
        try PlaceholderAddress.check(payloads.template, proof: options.proof)
        // Signing and QR encoding are independent per stop: spread over the cores.
        let (options, geometry) = (self.options, self.geometry)
        let results = Parallel.map(stops.count) { index in
            Result { () throws(LabelError.StopProblem) in
                try Self.prepare(stops[index], payloads: payloads, options: options, geometry: geometry)
            }
        }
        var prepared: [PreparedLabel] = []
        var problems: [LabelError.StopProblem] = []
        prepared.reserveCapacity(stops.count)
        for result in results {
            switch result {
            case .success(let label): prepared.append(label)
            case .failure(let problem): problems.append(problem)
            }
        }
        if !problems.isEmpty { throw .unlabelableStops(problems) }
        try checkModuleSizes(prepared, signed: payloads.signingKey != nil)
        return prepared
    }

    private static func prepare(
        _ stop: LabelStop, payloads: LabelPayloadBuilder, options: LabelOptions,
        geometry: LabelGeometry
    ) throws(LabelError.StopProblem) -> PreparedLabel {
        let value = try payloads.value(for: stop)
        let payload = try payloads.payload(for: stop)
        let qr: QRMatrix
        do {
            qr = try QRMatrix(encoding: payload, errorCorrection: options.errorCorrection)
        } catch {
            throw LabelError.StopProblem(stopID: stop.id, reason: "its payload cannot be a QR code: \(error)")
        }
        var barcode: Code128?
        if options.barcode {
            let code: Code128
            do {
                code = try Code128(encoding: value)
            } catch {
                throw LabelError.StopProblem(
                    stopID: stop.id,
                    reason:
                        "its code \"\(Terminal.clean(value, 60))\" cannot be a barcode: \(error); leave out --barcode")
            }
            let module = geometry.barcodeBox(code).module
            if module < LabelGeometry.minimumBarModule {
                throw LabelError.StopProblem(
                    stopID: stop.id,
                    reason: String(
                        format:
                            "its barcode needs %d modules across a %.1f mm column: %.2f mm bars, under the %.2f mm minimum; use a larger layout or leave out --barcode",
                        code.moduleCount + 2 * Code128.quietZone, toMM(geometry.column.width), toMM(module),
                        toMM(LabelGeometry.minimumBarModule)))
            }
            barcode = code
        }
        return PreparedLabel(stop: stop, value: value, payload: payload, qr: qr, barcode: barcode)
    }

    private func checkModuleSizes(_ labels: [PreparedLabel], signed: Bool) throws(LabelError) {
        let minimum = mm(LabelLayout.minimumModuleMM)
        let small = labels.filter { geometry.moduleSize($0.qr) < minimum - 1e-9 }
        if let worst = small.max(by: {
            $0.qr.size < $1.qr.size || ($0.qr.size == $1.qr.size && $0.payload.utf8.count < $1.payload.utf8.count)
        }) {
            throw .modulesTooSmall(
                ModuleSizeProblem(
                    layout: options.layout.name, moduleMM: toMM(geometry.moduleSize(worst.qr)),
                    minimumMM: LabelLayout.minimumModuleMM,
                    stopID: worst.stop.id, payloadBytes: worst.payload.utf8.count, version: worst.qr.version,
                    modulesAcross: worst.qr.sizeWithQuietZone, errorCorrection: options.errorCorrection,
                    symbolMM: toMM(geometry.qrBox.width), affected: small.count, total: labels.count, signed: signed))
        }
        guard options.format == .png else { return }
        // A raster must give each QR module at least 3 pixels and each bar module 2, or rounding eats them.
        let dotsPerPoint = Double(options.dpi) / 72
        var worstPixels = Double.infinity
        var neededDPI = 0
        for label in labels {
            let module = geometry.moduleSize(label.qr)
            worstPixels = min(worstPixels, module * dotsPerPoint)
            neededDPI = max(neededDPI, Int((3 * 72 / module).rounded(.up)))
            if let barcode = label.barcode {
                let bar = geometry.barcodeBox(barcode).module
                worstPixels = min(worstPixels, bar * dotsPerPoint * 1.5)
                neededDPI = max(neededDPI, Int((2 * 72 / bar).rounded(.up)))
            }
        }
        if neededDPI > options.dpi {
            throw .resolutionTooLow(dpi: options.dpi, modulePixels: worstPixels, minimumDPI: neededDPI)
        }
    }

    /// Lays every label out.
    func compose(_ labels: [PreparedLabel]) -> [ComposedLabel] {
        labels.map { label in
            var composed = composer.compose(label, geometry: geometry, proof: options.proof)
            tamper?(&composed)
            return composed
        }
    }
}

/// Draws composed labels into the output format, page by page, into temporary files beside the destination.
final class DocumentWriter {
    let options: LabelOptions
    let fonts: FontSet

    init(options: LabelOptions, fonts: FontSet) {
        self.options = options
        self.fonts = fonts
    }

    /// Draws the document into temporary files beside `output`; the caller commits them (or drops them, which
    /// removes them).
    func draw(_ labels: [ComposedLabel], to output: String) throws(LabelError) -> (LabelRun, [AtomicFileWriter]) {
        let layout = options.layout
        let pages = (labels.count + layout.labelsPerPage - 1) / layout.labelsPerPage
        let files = options.format == .pdf ? [output] : AtomicOutput.pageFiles(output, pages: pages)
        let pageWidth = mm(layout.pageWidth), pageHeight = mm(layout.pageHeight)

        func drawPage(_ canvas: Canvas, _ page: Int) {
            let first = page * layout.labelsPerPage
            for index in first..<min(labels.count, first + layout.labelsPerPage) {
                let cell = layout.cell(index)
                canvas.save()
                canvas.translate(mm(cell.x), mm(cell.y))
                canvas.draw(labels[index])
                canvas.restore()
            }
            if layout.cutMarks { canvas.drawCutMarks(layout) }
            if layout.footer {
                let footer = "\(options.title) · \(labels.count) labels · page \(page + 1)/\(pages)"
                canvas.text(
                    LabelComposer.clean(footer), x: mm(layout.originX), baseline: pageHeight - mm(8), font: .regular,
                    size: 7,
                    color: RGBColor(red: 0.35, green: 0.35, blue: 0.35))
            }
            if options.proof, layout.originY >= 12 {
                // The sheet's top margin says it too, in both languages.
                let placeholder = labels.contains { PlaceholderAddress.host(ofAddress: $0.prepared.payload) != nil }
                let words = [Language.es, .en].map { ProofMark.text(placeholder: placeholder, $0) }
                canvas.text(
                    words.joined(separator: " / "), x: mm(layout.originX), baseline: mm(7), font: .bold, size: 9,
                    color: ProofMark.color)
            }
        }

        let pending = try PageOutput(
            format: options.format, dpi: options.dpi, title: options.title, creator: "StopKiosk (kiosk labels)",
            fonts: fonts
        ).write(
            count: pages, to: files, size: { _ in (pageWidth, pageHeight) },
            tooLarge: { "a \(layout.name) page at \(self.options.dpi) dpi would be \($0) × \($1) pixels; use a lower --dpi" },
            draw: drawPage)
        var entries: [LabelRun.Entry] = []
        var warnings: [LabelRun.Warning] = []
        for (index, label) in labels.enumerated() {
            let page = index / layout.labelsPerPage
            let prepared = label.prepared
            entries.append(
                LabelRun.Entry(
                    stopID: prepared.stop.id, stopCode: prepared.stop.code, value: prepared.value,
                    payload: prepared.payload, page: page + 1, file: files[options.format == .pdf ? 0 : page],
                    qrVersion: prepared.qr.version, moduleMM: toMM(label.module)))
            warnings += label.warnings.map { LabelRun.Warning(stopID: prepared.stop.id, message: $0) }
        }
        return (LabelRun(files: files, pages: pages, labels: entries, warnings: warnings), pending)
    }
}

/// The labels still to read back, shared by the threads that read them, and what each read found.
final class ReadBackQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var taken = 0, finished = 0
    private let count: Int
    private var found: [[ReadBackFailure]]

    init(count: Int) {
        self.count = count
        found = Array(repeating: [], count: count)
    }

    /// The next label to read back, or nil when every label is taken.
    func next() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard taken < count else { return nil }
        defer { taken += 1 }
        return taken
    }

    /// Records what label `index` read back as, and tells `report` how many labels are read back so far (under
    /// the lock, so the counts reach a progress line in order).
    func finish(_ index: Int, _ failures: [ReadBackFailure], report: (Int) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        if !failures.isEmpty { found[index] = failures }
        finished += 1
        report(finished)
    }

    /// Every failure, in label order (read after the threads have joined).
    var failures: [ReadBackFailure] {
        lock.lock()
        defer { lock.unlock() }
        return found.flatMap { $0 }
    }
}

/// A value handed from one `concurrentPerform` iteration to the code after it. Unchecked because the
/// compiler cannot see the rule that makes it safe: exactly one iteration writes it, and it is read only after
/// `concurrentPerform` has returned (which joins every iteration).
final class Handoff<Value>: @unchecked Sendable {
    var value: Value?
    init() {}
}

/// Work spread over the cores with `DispatchQueue.concurrentPerform`.
enum Parallel {
    /// At most four: the work per item is small, and kiosks and label stations have few cores.
    static let threads = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))

    /// `transform` of every index, in order, computed on up to `threads` threads. `transform` must only read
    /// shared state.
    static func map<T: Sendable>(_ count: Int, _ transform: @Sendable (Int) -> T) -> [T] {
        guard count > 1, threads > 1 else { return (0..<count).map(transform) }
        let slots = Slots<T>(count: count)
        let chunks = min(threads, count)
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            var index = chunk
            while index < count {
                slots.set(index, transform(index))
                index += chunks
            }
        }
        return slots.values
    }

    /// Result slots: each index is written by one iteration only, and read after the join.
    private final class Slots<T>: @unchecked Sendable {
        private let base: UnsafeMutablePointer<T?>
        private let count: Int

        init(count: Int) {
            base = UnsafeMutablePointer<T?>.allocate(capacity: count)
            base.initialize(repeating: nil, count: count)
            self.count = count
        }

        deinit {
            base.deinitialize(count: count)
            base.deallocate()
        }

        func set(_ index: Int, _ value: T) { base[index] = value }

        var values: [T] { (0..<count).map { base[$0]! } }
    }
}
