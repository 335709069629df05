import Foundation
import SystemSupport
import TransitModel

/// How timetables are printed.
public struct TimetablePrintOptions: Sendable, Hashable {
    public var layout: TimetableLayout
    public var format: LabelFormat
    /// PNG resolution (dots per inch); ignored by the vector formats.
    public var dpi: Int
    public var language: Language
    /// The passenger locale's clock the times are printed on ("3:05p" on a 12-hour clock).
    public var clock: PassengerLocale.Clock
    /// The passenger locale's date style for the validity line ("Valid from 8/19/2026 …" on a US feed); nil: the
    /// printers' own short dates.
    public var dates: PassengerLocale.DateStyle?
    /// PDF title, and the first part of each page's footer.
    public var title: String
    /// Probe the output's folder before writing (a file that can be created there). A caller writing thousands of
    /// files into one folder it has checked leaves this off: each probe lists the folder.
    public var probeOutput: Bool
    /// A proof copy of a stop's poster: allowed with the placeholder address (`PlaceholderAddress`), every page
    /// framed in red and saying, in its language, that it is not for posting.
    public var proof: Bool

    public init(
        layout: TimetableLayout = .a4, format: LabelFormat = .pdf, dpi: Int = 200, language: Language = .es,
        title: String = "StopKiosk", probeOutput: Bool = true, proof: Bool = false,
        clock: PassengerLocale.Clock = .twentyFourHour, dates: PassengerLocale.DateStyle? = nil
    ) {
        self.clock = clock
        self.dates = dates
        self.proof = proof
        self.layout = layout
        self.format = format
        self.dpi = dpi
        self.language = language
        self.title = title
        self.probeOutput = probeOutput
    }
}

/// Why a timetable could not be printed. Nothing is written when any of these is thrown.
public enum TimetablePrintError: Error, Sendable, CustomStringConvertible {
    /// The poster failed its check: a text leaves its box, texts overlap, or the QR code does not read back.
    case checkFailed(what: String, problems: [String])
    /// The stop's QR payload cannot be made (see `LabelError`), or the file cannot be written.
    case label(LabelError)

    public var description: String {
        switch self {
        case let .checkFailed(what, problems):
            let shown = problems.prefix(20)
            return "the \(what) failed its check; nothing was written:\n  " + shown.joined(separator: "\n  ")
                + (problems.count > 20 ? "\n  … and \(problems.count - 20) more" : "")
        case .label(let error): return error.description
        }
    }
}

/// What a printed timetable holds, for summaries and tests.
public struct TimetablePrintResult: Sendable {
    /// A named area of a page in points from its top-left corner: `column` areas hold a stop timetable column's
    /// hour rows (`section`, `column` index), `route` areas a route timetable's time cells from trip `column` on.
    public struct Region: Sendable, Hashable, Codable {
        public var page: Int
        public var kind: String
        public var section: Int
        public var column: Int
        public var x: Double, y: Double, width: Double, height: Double
    }

    public var files: [String]
    public var pages: Int
    public var regions: [Region]
    public var pageWidth: Double
    public var pageHeight: Double
}

/// Prints stop timetable posters and route timetables: lays them out, checks every page (texts inside their
/// boxes, nothing overlapping, the QR code reading back), then writes PDF, SVG or PNG atomically.
///
/// Not `Sendable`: it owns cairo font faces and a zbar scanner. Make one per thread.
public final class TimetablePrinter {
    public let options: TimetablePrintOptions
    let fonts = FontSet()
    let measurer: InkMeasurer
    let checker: PosterChecker
    /// Tests use this to damage pages after layout, to see the check refuse them.
    var tamper: ((inout [PosterPage]) -> Void)?

    public init(options: TimetablePrintOptions) {
        self.options = options
        measurer = InkMeasurer(fonts: fonts)
        checker = PosterChecker(fonts: fonts)
    }

    /// The stop's poster: `payloads` makes its QR code exactly as for its label (signed when the labels are);
    /// the unsigned URL is printed beside it.
    public func printStop(
        _ timetable: StopTimetable, payloads: LabelPayloadBuilder, output: String
    ) throws(TimetablePrintError) -> TimetablePrintResult {
        let stop = LabelStop(id: timetable.stop.id, code: timetable.stop.code, name: timetable.stop.name)
        do {
            try PlaceholderAddress.check(payloads.template, proof: options.proof)
        } catch {
            throw .label(error)
        }
        let value: String, payload: String
        let matrix: QRMatrix
        do {
            value = try payloads.value(for: stop)
            payload = try payloads.payload(for: stop)
        } catch {
            throw .label(.unlabelableStops([error]))
        }
        do {
            matrix = try QRMatrix(encoding: payload, errorCorrection: .medium)
        } catch {
            throw .label(
                .unlabelableStops([LabelError.StopProblem(stopID: stop.id, reason: "its payload cannot be a QR code: \(error)")]))
        }
        var display = payloads.template.url(for: value)
        for scheme in ["https://", "http://"] where display.hasPrefix(scheme) { display.removeFirst(scheme.count) }
        let composer = StopPosterComposer(
            measurer: measurer, language: options.language, layout: options.layout, clock: options.clock,
            dates: options.dates)
        var pages = composer.compose(
            timetable,
            header: StopPosterComposer.Header(
                payload: payload, qr: matrix, displayURL: display, code: value, footer: options.title))
        if options.proof {
            let placeholder = PlaceholderAddress.host(ofAddress: payload) != nil
            let words = ProofMark.text(placeholder: placeholder, options.language)
            for index in pages.indices { pages[index].markProof(words, measurer: measurer) }
        }
        tamper?(&pages)
        return try finish(pages, what: "timetable of stop \(Terminal.clean(timetable.stop.id, 60))", output: output)
    }

    /// The route timetable, stops down and trips across.
    public func printRoute(_ timetable: RouteTimetable, output: String) throws(TimetablePrintError) -> TimetablePrintResult
    {
        let composer = RoutePosterComposer(
            measurer: measurer, language: options.language, layout: options.layout, clock: options.clock)
        var pages = composer.compose(timetable, footer: options.title)
        tamper?(&pages)
        return try finish(
            pages, what: "timetable of route \(Terminal.clean(timetable.route.label, 40))", output: output)
    }

    private func finish(_ pages: [PosterPage], what: String, output: String) throws(TimetablePrintError)
        -> TimetablePrintResult
    {
        var problems: [String] = []
        for (index, page) in pages.enumerated() { problems += checker.check(page, number: index + 1) }
        if !problems.isEmpty { throw .checkFailed(what: what, problems: problems) }
        do {
            if options.probeOutput { try AtomicOutput.validate(output) }
            let files = try write(pages, to: output)
            var regions: [TimetablePrintResult.Region] = []
            for (index, page) in pages.enumerated() {
                for region in page.regions {
                    regions.append(
                        .init(
                            page: index + 1, kind: region.kind, section: region.section, column: region.column,
                            x: region.rect.x, y: region.rect.y, width: region.rect.width, height: region.rect.height))
                }
            }
            return TimetablePrintResult(
                files: files, pages: pages.count, regions: regions, pageWidth: pages.first?.width ?? 0,
                pageHeight: pages.first?.height ?? 0)
        } catch {
            throw .label(error)
        }
    }

    /// Draws the pages into temporary files beside `output` and renames them into place.
    private func write(_ pages: [PosterPage], to output: String) throws(LabelError) -> [String] {
        guard !pages.isEmpty else { throw .invalidRequest("nothing to print") }
        let files = options.format == .pdf ? [output] : AtomicOutput.pageFiles(output, pages: pages.count)
        let writer = PageOutput(
            format: options.format, dpi: options.dpi, title: options.title, creator: "StopKiosk (kiosk timetable)",
            fonts: fonts)
        let pending = try writer.write(
            count: pages.count, to: files, size: { (pages[$0].width, pages[$0].height) },
            tooLarge: { "a page at \(self.options.dpi) dpi would be \($0) × \($1) pixels; use a lower --dpi" },
            draw: { canvas, page in canvas.draw(pages[page]) })
        for file in pending { try file.commitLabels() }
        return files
    }
}
