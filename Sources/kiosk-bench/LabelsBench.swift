import ArgumentParser
import Foundation
import Labels
import Scanning
import StopCodes
import TransitModel
import TransitStore

/// Labels per second for an A4 PDF of every boarding stop of a feed, read-back check included — the whole of
/// `kiosk labels --all` after the database query, in this process (`LabelRenderer.run`, which spreads its work
/// over the cores as the command does), and with --kiosk also as `kiosk labels --all` processes. The peer in the
/// same run is the bare floor of the check: libqrencode and zbar on the same payloads, one after the other on one
/// thread, with no signing, layout, text or PDF (the QR matrix drawn straight into pixels at the same 4 pixels per
/// module). The ratio is whole-run labels/s over floor labels/s: 1.0 means the whole run keeps up with the floor.
struct LabelsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "labels", abstract: "Label sheets per second, read-back check included.")

    @Option(help: "A GTFS feed to import first (not timed), e.g. ../shared/data/gtfs/carta.zip.")
    var feed: String?

    @Option(help: "A route database made by 'kiosk import' (instead of --feed).")
    var db: String?

    @Option(help: "Measured runs (after one warm-up).")
    var runs = 3

    @Option(help: "Layout: \(LabelLayout.all.map(\.name).joined(separator: ", ")).")
    var layout = "a4"

    @Flag(help: "Unsigned URLs (default: signed, the larger QR codes).")
    var unsigned = false

    @Option(
        help: ArgumentHelp(
            "Also time 'kiosk labels --all' as a process (signed, --db, --out in a temporary folder): this kiosk "
                + "executable, each run beside a floor run.", valueName: "kiosk"))
    var kiosk: String?

    func validate() throws {
        guard (feed == nil) != (db == nil) else { throw ValidationError("give exactly one of --feed FILE, --db FILE") }
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
        guard LabelLayout.named(layout) != nil else { throw ValidationError("unknown --layout \(layout)") }
    }

    func run() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-labels-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var path = db ?? ""
        if let feed {
            path = work.appendingPathComponent("routes.sqlite").path
            _ = try GTFSImporter(feedPath: feed, databasePath: path, logger: Measure.quietLogger).run()
        }
        let routes = try RouteDatabase(path: path)
        let records = try routes.allLabelStops()
        let stops = records.map { record in
            LabelStop(
                id: record.stop.id, code: record.stop.code, name: record.stop.name,
                routes: record.routes.map {
                    LabelRoute(name: $0.label, color: RGBColor(hex: $0.color), textColor: RGBColor(hex: $0.textColor))
                },
                agencies: record.agencies)
        }
        let template = try StopURLTemplate(
            allHaveCodes(records) ? "https://transit.example/s/{stop_code}" : "https://transit.example/s/{stop_id}")
        let payloads = LabelPayloadBuilder(
            template: template, feedID: routes.feedID, signingKey: unsigned ? nil : KeyPair.generate())
        // A proof copy: the placeholder address is refused otherwise (the mark is a frame and a line per label).
        let options = LabelOptions(layout: LabelLayout.named(layout)!, format: .pdf, proof: true)
        let output = work.appendingPathComponent("labels.pdf").path

        var rates: [Double] = [], floors: [Double] = [], ratios: [Double] = [], cpuRatios: [Double] = []
        var last: LabelRun?
        for index in 0...runs {
            let cpuBefore = Self.cpuSeconds()
            let (run, seconds) = try Measure.seconds {
                try LabelRenderer(options: options).run(stops: stops, payloads: payloads, output: output)
            }
            let cpuBetween = Self.cpuSeconds()
            let floor = try bareFloor(stops, payloads: payloads, errorCorrection: options.errorCorrection)
            let cpuAfter = Self.cpuSeconds()
            if index == 0 { continue }  // warm-up: fontconfig's cache, the page cache
            rates.append(Double(stops.count) / seconds)
            floors.append(Double(stops.count) / floor)
            ratios.append(floor / seconds)
            cpuRatios.append((cpuAfter - cpuBetween) / (cpuBetween - cpuBefore))
            last = run
        }
        guard let last else { return }
        let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        let t = last.timings
        let ms = { (seconds: Double) in String(format: "%.0f ms", seconds * 1000) }
        let f = { (value: Double) in String(format: "%.0f", value) }
        let r = { (values: [Double]) in
            String(format: "min %.2f  median %.2f", values.min()!, Measure.median(values))
        }
        print(
            """
            labels: \(stops.count) stops of \(path) (feed \(routes.feedID)), layout \(layout), \(unsigned ? "unsigned" : "signed") URLs, \
            \(last.pages) PDF pages, \(size / 1024) KiB, \(ProcessInfo.processInfo.activeProcessorCount) cores
              bare libqrencode + zbar (one thread), labels/s     min \(f(floors.min()!))  median \(f(Measure.median(floors)))
              whole run in-process (read-back included), labels/s  min \(f(rates.min()!))  median \(f(Measure.median(rates)))  (target ≥ 100, goal 500)
              ratio whole/floor labels/s, run by run              \(r(ratios))  (goal ≥ 1.0)
              CPU seconds floor/whole, run by run                 \(r(cpuRatios))  (the work, whatever the load)
              last run: prepare \(ms(t.prepare))  layout \(ms(t.compose))  then, side by side: PDF \(ms(t.write)); read-back \(ms(t.verify)) (joined by the PDF's thread once it is written)
            """)
        if let kiosk { try processFigures(kiosk, path: path, template: template, payloads: payloads, stops: stops, work: work) }
    }

    /// `kiosk labels --all` processes (signed with a key of their own, a non-placeholder address), each timed
    /// beside a floor run on the same payloads.
    private func processFigures(
        _ kiosk: String, path: String, template: StopURLTemplate, payloads: LabelPayloadBuilder, stops: [LabelStop],
        work: URL
    ) throws {
        let keys = work.appendingPathComponent("keys").path
        let generated = try Measure.spawn(kiosk, ["keys", "generate", "--out", keys])
        guard generated.status == 0 else { throw ValidationError("kiosk keys generate exited \(generated.status)") }
        let pattern = template.pattern.replacingOccurrences(of: "transit.example", with: "stops.bench.test")
        let arguments = [
            "labels", "--all", "--db", path, "--sign-key", keys + "/label-signing.key", "--template", pattern,
            "--out", work.appendingPathComponent("process.pdf").path,
        ]
        var rates: [Double] = [], floors: [Double] = [], ratios: [Double] = [], cpu: [Double] = []
        for index in 0...runs {
            let child = try Measure.spawn(kiosk, arguments, stderrPath: work.appendingPathComponent("stderr").path)
            guard child.status == 0 else {
                let message = (try? String(contentsOf: work.appendingPathComponent("stderr"), encoding: .utf8)) ?? ""
                throw ValidationError("kiosk \(arguments.joined(separator: " ")) exited \(child.status): \(message)")
            }
            let floor = try bareFloor(stops, payloads: payloads, errorCorrection: .medium)
            if index == 0 { continue }
            rates.append(Double(stops.count) / child.seconds)
            floors.append(Double(stops.count) / floor)
            ratios.append(floor / child.seconds)
            cpu.append(child.cpuSeconds / child.seconds)
        }
        print(
            String(
                format: """
                      'kiosk labels --all' processes (start-up and database query included), labels/s  min %.0f  median %.0f
                      bare floor beside them, labels/s                   min %.0f  median %.0f
                      ratio process/floor labels/s, run by run           min %.2f  median %.2f  (cores busy: median %.2f)
                    """, rates.min()!, Measure.median(rates), floors.min()!, Measure.median(floors), ratios.min()!,
                Measure.median(ratios), Measure.median(cpu)))
    }

    /// User + system CPU time of this process so far, every thread.
    private static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        let seconds = { (t: timeval) in Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Whether every stop has a code (else the template names stop IDs).
    private func allHaveCodes(_ records: [LabelStopRecord]) -> Bool {
        records.allSatisfy { !($0.stop.code ?? "").isEmpty }
    }

    /// libqrencode and zbar alone on the same payloads: encode, draw the matrix into pixels, decode.
    private func bareFloor(
        _ stops: [LabelStop], payloads: LabelPayloadBuilder, errorCorrection: QRErrorCorrection
    ) throws -> Double {
        let decoder = ZBarDecoder(configuration: DecoderConfiguration(symbologies: [.qrCode], recovery: []))
        let texts = try stops.map { try payloads.payload(for: $0) }
        let (_, seconds) = try Measure.seconds {
            for text in texts {
                let matrix = try QRMatrix(encoding: text, errorCorrection: errorCorrection)
                let scale = 4, side = matrix.sizeWithQuietZone * scale
                var pixels = [UInt8](repeating: 255, count: side * side)
                for row in 0..<matrix.size {
                    for column in 0..<matrix.size where matrix[row, column] {
                        for y in 0..<scale {
                            let base =
                                ((row + QRMatrix.quietZone) * scale + y) * side + (column + QRMatrix.quietZone) * scale
                            for x in 0..<scale { pixels[base + x] = 0 }
                        }
                    }
                }
                let found = decoder.decode(LumaFrame(width: side, height: side, pixels: pixels))
                guard found.count == 1, found[0].matches(Array(text.utf8)) else {
                    throw ValidationError("bare check failed for \(text)")
                }
            }
        }
        return seconds
    }
}
