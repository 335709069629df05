import Foundation
import KioskTesting
import Scanning
import StopCodes
import Testing

@testable import Labels

@Suite("Label rendering and the read-back check")
struct RenderTests {
    let builder = LabelPayloadBuilder(template: TestSupport.postedTemplate, feedID: "transit.example")

    func render(
        _ stops: [LabelStop], layout: LabelLayout = .single, format: LabelFormat = .png, barcode: Bool = false,
        ecc: QRErrorCorrection = .medium, builder: LabelPayloadBuilder? = nil, name: String = "labels"
    ) throws -> (LabelRun, URL) {
        let dir = TemporaryFolder.make("render")
        let out = dir.appendingPathComponent("\(name).\(format.rawValue)")
        let renderer = LabelRenderer(
            options: LabelOptions(layout: layout, format: format, dpi: 200, errorCorrection: ecc, barcode: barcode))
        return (try renderer.run(stops: stops, payloads: builder ?? self.builder, output: out.path), dir)
    }

    @Test("a 300-character name wraps, shrinks and ends in an ellipsis; the label still scans")
    func longName() throws {
        let words = [
            "Terminal", "Terrestre", "Interprovincial", "de", "Quitumbe", "Andén", "Norte", "–", "Entrada", "por", "la",
            "Avenida",
            "Cóndor", "Ñan", "y", "Mariscal", "Sucre",
        ]
        var name = ""
        var index = 0
        while name.count < 300 { name += (name.isEmpty ? "" : " ") + words[index % words.count]; index += 1 }
        name = String(name.prefix(300))
        let stop = LabelStop(
            id: "LONG", code: "2201", name: name, routes: TestSupport.stops[1].routes,
            agencies: TestSupport.stops[1].agencies)
        let (run, dir) = try render([stop], barcode: true, name: "long")
        #expect(run.warnings.contains { $0.message.contains("shortened") })
        let file = URL(fileURLWithPath: run.files[0])
        let symbols = try TestSupport.decode(file)
        #expect(symbols.filter { $0.symbology == .qrCode }.map(\.lossyText) == ["https://stops.quito.test/s/2201"])
        #expect(symbols.filter { $0.symbology == .code128 }.map(\.lossyText) == ["2201"])
        try? FileManager.default.removeItem(at: dir)
    }

    @Test(
        "nothing overlaps the QR code, the barcode or the label edge, on every layout, whatever the name and routes",
        arguments: LabelLayout.all)
    func layoutInvariants(layout: LabelLayout) throws {
        for barcode in [false, true] {
            let renderer = LabelRenderer(options: LabelOptions(layout: layout, barcode: barcode))
            let ascent = renderer.measurer.metrics(.bold).ascent, descent = renderer.measurer.metrics(.bold).descent
            for (length, routeCount) in [(1, 0), (20, 1), (60, 3), (120, 8), (300, 30), (1000, 12)] {
                let name = String(String(repeating: "Ñandú Σ ", count: length / 8 + 1).prefix(length))
                let routes = (0..<routeCount).map {
                    LabelRoute(name: $0 % 5 == 4 ? "Expreso \($0)" : "\($0 + 1)", color: RGBColor(hex: "1B6EC2"))
                }
                let stop = LabelStop(id: "S", code: "12345", name: name, routes: routes, agencies: ["Agencia " + name])
                let label = renderer.compose(try renderer.prepare([stop], payloads: builder))[0]
                let g = label.geometry
                let context = "\(layout.name), barcode \(barcode), name \(length), routes \(routeCount)"
                var boxes = label.badges.map(\.rect)
                for run in label.texts {
                    let width = renderer.measurer.width(run.text, run.font) * run.size
                    #expect(run.size >= LabelGeometry.minimumTextSize - 1e-9, "\(context): '\(run.text)' too small")
                    boxes.append(
                        Rect(
                            x: run.x, y: run.baseline - ascent * run.size, width: width,
                            height: (ascent + descent) * run.size))
                }
                for box in boxes {
                    #expect(
                        box.x >= g.padding - 0.01 && box.maxX <= g.width - g.padding + 0.5,
                        "\(context): \(box) leaves the label")
                    #expect(box.maxY <= g.height + 0.01, "\(context): \(box) below the label")
                    #expect(!box.intersects(g.qrBox), "\(context): \(box) in the QR code's quiet zone")
                    if let bars = label.barcodeBox {
                        #expect(!box.intersects(bars), "\(context): \(box) over the barcode")
                    }
                }
                #expect(label.texts.contains { $0.text == "12345" }, "\(context): the code is printed whole")
            }
        }
    }

    @Test("accents and other scripts DejaVu covers print without warnings; CJK is reported")
    func scripts() throws {
        let stops = [
            LabelStop(id: "ES", code: "1", name: "Cumbayá – Ñuñoa, Güiltig", routes: [], agencies: ["Agencia"]),
            LabelStop(id: "EL", code: "2", name: "Σύνταγμα", routes: [], agencies: ["ΣΤΑΣΥ"]),
            LabelStop(id: "RU", code: "3", name: "Площадь Революции", routes: [], agencies: ["Метрополитен"]),
            LabelStop(id: "JA", code: "4", name: "新宿駅 西口", routes: [], agencies: ["東京"]),
        ]
        let (run, dir) = try render(stops, layout: .a4, format: .pdf, name: "scripts")
        let warned = Set(run.warnings.map(\.stopID))
        #expect(warned == ["JA"], "\(run.warnings)")
        #expect(run.warnings.first { $0.stopID == "JA" }?.message.contains("no glyphs") == true)
        try? FileManager.default.removeItem(at: dir)
    }

    @Test("control and escape characters from the feed never reach the page")
    func hostileText() throws {
        let renderer = LabelRenderer(options: LabelOptions(layout: .single))
        let stop = LabelStop(
            id: "S", code: "123", name: "Plaza\u{1B}[2J Grande\u{202E}evil\u{0007}",
            routes: [LabelRoute(name: "L\u{0}1")],
            agencies: ["Agencia\u{9B}31m"])
        let label = renderer.compose(try renderer.prepare([stop], payloads: builder))[0]
        for run in label.texts {
            #expect(
                !run.text.unicodeScalars.contains {
                    $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E
                }, "\(run.text.debugDescription)")
        }
    }

    @Test("a label that does not read back is refused, naming the stop, and nothing is written")
    func damagedLabelRefused() throws {
        let dir = TemporaryFolder.make("damaged")
        let out = dir.appendingPathComponent("sheet.pdf")
        try Data("previous sheet".utf8).write(to: out)
        let renderer = LabelRenderer(options: LabelOptions(layout: .a4))
        // Wipe the finder pattern of one label's QR code.
        renderer.tamper = { label in
            guard label.prepared.stop.id == "EP-X" else { return }
            let qr = label.prepared.qr
            var modules = qr.modules
            for row in 0..<7 { for column in 0..<7 { modules[row * qr.size + column] = false } }
            label.prepared.qr = QRMatrix(
                size: qr.size, version: qr.version, errorCorrection: qr.errorCorrection, modules: modules)
        }
        #expect { try renderer.run(stops: TestSupport.stops, payloads: builder, output: out.path) } throws: { error in
            guard case LabelError.readBackFailed(let failures) = error else { return false }
            return failures.map(\.stopID) == ["EP-X"] && "\(error)".contains("EP-X")
                && "\(error)".contains("nothing decoded")
        }
        #expect(try String(contentsOf: out, encoding: .utf8) == "previous sheet")
        #expect(TestSupport.listing(dir) == ["sheet.pdf"], "a temporary file was left behind")
    }

    @Test("a QR code holding another stop's payload is refused, saying what it read")
    func wrongPayloadRefused() throws {
        let dir = TemporaryFolder.make("wrong")
        let renderer = LabelRenderer(options: LabelOptions(layout: .single, format: .png))
        let other = try QRMatrix(encoding: "https://stops.quito.test/s/9999", errorCorrection: .medium)
        renderer.tamper = { label in if label.prepared.stop.id == "S3" { label.prepared.qr = other } }
        #expect {
            try renderer.run(
                stops: TestSupport.stops, payloads: builder, output: dir.appendingPathComponent("x.png").path)
        } throws: { error in
            guard case LabelError.readBackFailed(let failures) = error, failures.count == 1 else { return false }
            return failures[0].stopID == "S3" && failures[0].found == ["https://stops.quito.test/s/9999"]
        }
        #expect(TestSupport.listing(dir).isEmpty)
    }

    @Test("the read-back raster holds exactly the symbol's modules, from the bits the page prints, in white quiet zone")
    func readBackRasterIsTheMatrix() throws {
        let renderer = LabelRenderer(options: LabelOptions(layout: .a4))
        let label = renderer.compose(try renderer.prepare([TestSupport.stops[1]], payloads: builder))[0]
        let qr = label.prepared.qr
        #expect(label.qrBitmap == QRBitmap(qr))
        let packed = (0..<qr.size).flatMap { row in
            (0..<qr.size).map { label.qrBitmap.isDark(row: row, column: $0) }
        }
        #expect(packed == qr.modules, "the 1-bit image the PDF's stencil mask is made from differs from the matrix")
        let module = label.module
        let quiet = Double(QRMatrix.quietZone)
        let region = Rect(
            x: label.geometry.qrBox.x, y: label.geometry.qrBox.y, width: label.geometry.qrBox.width,
            height: label.geometry.qrBox.height)
        let frame = ReadBackChecker(fonts: FontSet()).rasterise(
            label, region: region, pixelsPerPoint: ReadBackChecker.pixelsPerQRModule / module)
        // The centre of every module, quiet zone included: dark exactly where the matrix is dark.
        var wrong = 0
        for row in -QRMatrix.quietZone..<(qr.size + QRMatrix.quietZone) {
            for column in -QRMatrix.quietZone..<(qr.size + QRMatrix.quietZone) {
                let x = Int(((Double(column) + quiet + 0.5) * ReadBackChecker.pixelsPerQRModule))
                let y = Int(((Double(row) + quiet + 0.5) * ReadBackChecker.pixelsPerQRModule))
                guard x < frame.width, y < frame.height else { continue }
                let inSymbol = row >= 0 && column >= 0 && row < qr.size && column < qr.size
                let dark = inSymbol && qr[row, column]
                if (frame.pixels[y * frame.width + x] < 128) != dark { wrong += 1 }
            }
        }
        #expect(wrong == 0, "\(wrong) modules of the raster differ from the matrix")
    }

    @Test("text laid over the QR code's quiet zone is caught by the read-back: the whole label is rasterised")
    func textOverQuietZoneRefused() throws {
        let dir = TemporaryFolder.make("overlap")
        let renderer = LabelRenderer(options: LabelOptions(layout: .a4))
        // Move the big stop code over the QR symbol's top-left finder pattern and its quiet zone.
        renderer.tamper = { label in
            guard label.prepared.stop.id == "MQ01A", let first = label.texts.first else { return }
            var run = first
            run.text = "████"
            run.x = label.geometry.qrBox.x
            run.baseline = label.geometry.qrBox.y + run.size * 0.7
            label.texts.append(run)
        }
        #expect {
            try renderer.run(
                stops: TestSupport.stops, payloads: builder, output: dir.appendingPathComponent("x.pdf").path)
        } throws: { error in
            guard case LabelError.readBackFailed(let failures) = error else { return false }
            return failures.map(\.stopID) == ["MQ01A"]
        }
        #expect(TestSupport.listing(dir).isEmpty)
    }

    @Test("an unwritable output is refused before any drawing, and no temporary file is left")
    func unwritableOutput() throws {
        let renderer = LabelRenderer(options: LabelOptions(layout: .single))
        #expect {
            try renderer.run(stops: TestSupport.stops, payloads: builder, output: "/nonexistent-dir/labels.pdf")
        } throws: { error in
            "\(error)".contains("/nonexistent-dir") && "\(error)".contains("does not exist")
        }
        let dir = TemporaryFolder.make("dir")
        #expect { try renderer.run(stops: TestSupport.stops, payloads: builder, output: dir.path) } throws: { error in
            "\(error)".contains("is a directory")
        }
        if getuid() != 0 {
            let locked = TemporaryFolder.make("locked")
            chmod(locked.path, 0o500)
            defer { chmod(locked.path, 0o700) }
            #expect {
                try renderer.run(
                    stops: TestSupport.stops, payloads: builder, output: locked.appendingPathComponent("x.pdf").path)
            } throws: { error in
                "\(error)".contains("permission")
            }
            #expect(TestSupport.listing(locked).isEmpty)
        }
    }

    @Test("layouts whose QR modules would be under 0.4 mm are refused, saying why and what to change")
    func moduleSizeRefused() throws {
        let key = KeyPair.generate()
        let long = LabelPayloadBuilder(
            template: TestSupport.template("https://transport.city-of-example-xyz.test/stops/labels/v1/{stop_code}"),
            feedID: "transit.example", signingKey: key)
        let renderer = LabelRenderer(options: LabelOptions(layout: .a4x21, errorCorrection: .high))
        #expect { _ = try renderer.prepare(TestSupport.stops, payloads: long) } throws: { error in
            guard case LabelError.modulesTooSmall(let problem) = error else { return false }
            let text = problem.description
            return problem.moduleMM < LabelLayout.minimumModuleMM && problem.affected == 3 && problem.signed
                && text.contains("a4-21") && text.contains("-byte payload")
                && text.contains("version \(problem.version)")
                && text.contains("--ecc") && text.contains("--template") && text.contains("--sign-key")
                && text.contains("0.40 mm")
        }
        // The same payloads fit the larger layouts, and the small one at a lower level.
        for layout in [LabelLayout.single, .a4] {
            _ = try LabelRenderer(options: LabelOptions(layout: layout, errorCorrection: .high)).prepare(
                TestSupport.stops, payloads: long)
        }
        _ = try LabelRenderer(options: LabelOptions(layout: .a4x21, errorCorrection: .low)).prepare(
            TestSupport.stops, payloads: builder)
    }

    @Test("PNG: modules under 3 pixels at the chosen resolution are refused, naming the resolution needed")
    func pngResolution() throws {
        let renderer = LabelRenderer(options: LabelOptions(layout: .a4x21, format: .png, dpi: 72))
        #expect { _ = try renderer.prepare(TestSupport.stops, payloads: builder) } throws: { error in
            guard case LabelError.resolutionTooLow(let dpi, _, let minimum) = error else { return false }
            return dpi == 72 && minimum > 72 && "\(error)".contains("--dpi \(minimum)")
        }
    }

    @Test("PNG pages carry their resolution (pHYs) and read back with zbar")
    func pngOutput() throws {
        let (run, dir) = try render(TestSupport.stops, layout: .single, format: .png, barcode: true, name: "p")
        #expect(run.files.map { URL(fileURLWithPath: $0).lastPathComponent } == ["p-01.png", "p-02.png", "p-03.png"])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: run.files[0])))
        let phys = Array("pHYs".utf8)
        let at = (0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == phys }
        #expect(at == 37, "pHYs right after IHDR")
        if let at {
            let perMetre = bytes[(at + 4)..<(at + 8)].reduce(0) { $0 << 8 | Int($1) }
            #expect(perMetre == 7874)  // 200 dpi
        }
        for (entry, file) in zip(run.labels, run.files) {
            let symbols = try TestSupport.decode(URL(fileURLWithPath: file))
            #expect(symbols.filter { $0.symbology == .qrCode }.map(\.lossyText) == [entry.payload])
            #expect(symbols.filter { $0.symbology == .code128 }.map(\.lossyText) == [entry.value])
        }
        try? FileManager.default.removeItem(at: dir)
    }

    @Test("SVG: one page per file, vector, sized in points")
    func svgOutput() throws {
        let stops = (1...9).map { LabelStop(id: "S\($0)", code: "\(1000 + $0)", name: "Parada \($0)") }
        let (run, dir) = try render(stops, layout: .a4, format: .svg, name: "sheet")
        #expect(run.pages == 2)
        #expect(run.files.map { URL(fileURLWithPath: $0).lastPathComponent } == ["sheet-01.svg", "sheet-02.svg"])
        #expect(TestSupport.listing(dir) == ["sheet-01.svg", "sheet-02.svg"])
        let text = try String(contentsOfFile: run.files[0], encoding: .utf8)
        #expect(text.contains("<svg"))
        #expect(text.contains("width=\"595.27") && text.contains("pt\""), "A4 in points")
        #expect(!text.contains("<image"), "no raster images in the vector output")
        try? FileManager.default.removeItem(at: dir)
    }

    @Test("PDF: a sheet rasterised by poppler reads back, every label")
    func pdfThroughPoppler() throws {
        let stops = (1...11).map {
            LabelStop(
                id: "S\($0)", code: String(format: "%04d", 3000 + $0), name: "Parada número \($0)",
                routes: [LabelRoute(name: "R\($0)", color: RGBColor(hex: "1B6EC2"))], agencies: ["Agencia"])
        }
        let key = KeyPair.generate()
        let signed = LabelPayloadBuilder(
            template: TestSupport.postedTemplate, feedID: "transit.example", signingKey: key)
        let (run, dir) = try render(stops, layout: .a4, format: .pdf, builder: signed, name: "sheet")
        #expect(run.pages == 2)
        let pages = try TestSupport.rasterise(pdf: URL(fileURLWithPath: run.files[0]))
        #expect(pages.count == 2)
        let found = try pages.flatMap { try TestSupport.decodeQRCodes($0) }
        #expect(found.sorted() == run.labels.map(\.payload).sorted())
        try? FileManager.default.removeItem(at: dir)
    }

    @Test("page file names for multi-page SVG and PNG")
    func pageFileNames() {
        #expect(AtomicOutput.pageFiles("/a/b/sheet.png", pages: 1) == ["/a/b/sheet.png"])
        #expect(
            AtomicOutput.pageFiles("/a/b/sheet.png", pages: 3) == [
                "/a/b/sheet-01.png", "/a/b/sheet-02.png", "/a/b/sheet-03.png",
            ])
        #expect(AtomicOutput.pageFiles("x", pages: 2) == ["x-01", "x-02"])
        #expect(AtomicOutput.pageFiles("d.v/x", pages: 2) == ["d.v/x-01", "d.v/x-02"])
        #expect(AtomicOutput.pageFiles(".hidden", pages: 2) == [".hidden-01", ".hidden-02"])
        #expect(AtomicOutput.pageFiles("s.svg", pages: 146).last == "s-146.svg")
    }
}
