import CCairo
import SystemSupport

/// Pages drawn with cairo into the output files, shared by labels and timetable posters: one PDF holding every page,
/// or an SVG or PNG file per page (`files`, one per page). The files are left pending (written, not yet renamed
/// into place) so the caller commits them only when everything succeeded.
struct PageOutput {
    var format: LabelFormat
    var dpi: Int
    /// The PDF's title and creator metadata.
    var title: String
    var creator: String
    let fonts: FontSet

    /// Writes `count` pages of the points sizes `size(page)`, each drawn by `draw(canvas, page)`. `tooLarge(width,
    /// height)` is the message for a PNG page over 120 megapixels.
    func write(
        count: Int, to files: [String], size: (Int) -> (width: Double, height: Double),
        tooLarge: (Int, Int) -> String, draw: (Canvas, Int) -> Void
    ) throws(LabelError) -> [AtomicFileWriter] {
        var pending: [AtomicFileWriter] = []
        switch format {
        case .pdf:
            let file = try AtomicFileWriter.labelOutput(files[0])
            pending.append(file)
            let sink = FileSink(file: file)
            let first = size(0)
            let status: cairo_status_t = withExtendedLifetime(sink) {
                let surface = cairo_pdf_surface_create_for_stream(
                    FileSink.callback, Unmanaged.passUnretained(sink).toOpaque(), first.width, first.height)!
                defer { cairo_surface_destroy(surface) }
                cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title)
                cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, creator)
                let canvas = Canvas(surface: surface, fonts: fonts)
                for page in 0..<count {
                    let pageSize = size(page)
                    cairo_pdf_surface_set_size(surface, pageSize.width, pageSize.height)
                    draw(canvas, page)
                    cairo_show_page(canvas.context)
                }
                let drawing = canvas.status
                cairo_surface_finish(surface)
                return drawing != CAIRO_STATUS_SUCCESS ? drawing : cairo_surface_status(surface)
            }
            if let failure = sink.failure { throw .outputFailed(path: files[0], reason: failure) }
            guard status == CAIRO_STATUS_SUCCESS else { throw .renderingFailed(reason: status.message) }
        case .svg:
            for page in 0..<count {
                let file = try AtomicFileWriter.labelOutput(files[page])
                pending.append(file)
                let sink = FileSink(file: file)
                let pageSize = size(page)
                let status: cairo_status_t = withExtendedLifetime(sink) {
                    let surface = cairo_svg_surface_create_for_stream(
                        FileSink.callback, Unmanaged.passUnretained(sink).toOpaque(), pageSize.width, pageSize.height)!
                    defer { cairo_surface_destroy(surface) }
                    cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PT)
                    let canvas = Canvas(surface: surface, fonts: fonts)
                    draw(canvas, page)
                    cairo_show_page(canvas.context)
                    let drawing = canvas.status
                    cairo_surface_finish(surface)
                    return drawing != CAIRO_STATUS_SUCCESS ? drawing : cairo_surface_status(surface)
                }
                if let failure = sink.failure { throw .outputFailed(path: files[page], reason: failure) }
                guard status == CAIRO_STATUS_SUCCESS else { throw .renderingFailed(reason: status.message) }
            }
        case .png:
            let scale = Double(dpi) / 72
            for page in 0..<count {
                let pageSize = size(page)
                let width = Int((pageSize.width * scale).rounded()), height = Int((pageSize.height * scale).rounded())
                guard width * height <= 120_000_000 else { throw .invalidRequest(tooLarge(width, height)) }
                let file = try AtomicFileWriter.labelOutput(files[page])
                pending.append(file)
                let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))!
                defer { cairo_surface_destroy(surface) }
                guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
                    throw .renderingFailed(
                        reason: "cannot make a \(width) × \(height) image: \(cairo_surface_status(surface).message)")
                }
                do {
                    let canvas = Canvas(surface: surface, fonts: fonts)
                    canvas.paint(.white)
                    canvas.scale(scale)
                    draw(canvas, page)
                }
                let sink = MemorySink()
                let status = withExtendedLifetime(sink) {
                    cairo_surface_write_to_png_stream(
                        surface, MemorySink.callback, Unmanaged.passUnretained(sink).toOpaque())
                }
                guard status == CAIRO_STATUS_SUCCESS else {
                    throw .renderingFailed(reason: "PNG encoding: \(status.message)")
                }
                try file.writeLabels(PNGMetadata.withResolution(sink.bytes, dpi: dpi))
            }
        }
        return pending
    }
}
