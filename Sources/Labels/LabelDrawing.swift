import CCairo

extension Canvas {
    /// Draws a composed label with its top-left corner at the current origin. The same calls draw the PDF,
    /// the SVG, the PNG and the read-back raster, so what is checked is what is printed.
    func draw(_ label: ComposedLabel) {
        if label.proof {
            // A red frame just inside the label's edge, clear of the QR code's quiet zone (the padding).
            let inset = min(2.0, label.geometry.padding / 3)
            cairo_new_path(context)
            addRect(inset, inset, label.geometry.width - 2 * inset, label.geometry.height - 2 * inset)
            stroke(ProofMark.color, width: 1.2)
        }
        for badge in label.badges {
            roundedRect(badge.rect, radius: badge.rect.height * 0.22)
            if let outline = badge.outline {
                fillPreserve(badge.fill)
                stroke(outline, width: 0.5)
            } else {
                fillPath(badge.fill)
            }
        }
        for run in label.texts {
            text(run.text, x: run.x, baseline: run.baseline, font: run.font, size: run.size, color: run.color)
        }
        drawQR(label.qrBitmap, outline: label.prepared.qr.outline, at: label.geometry.qrBox, module: label.module)
        if let barcode = label.prepared.barcode, let box = label.barcodeBox {
            let start = box.x + Double(Code128.quietZone) * label.barModule
            cairo_new_path(context)
            for bar in barcode.bars {
                addRect(
                    start + Double(bar.start) * label.barModule, box.y, Double(bar.width) * label.barModule, box.height)
            }
            fillPath(.black)
        }
    }

    /// Crop marks in the margins of a sheet, at every column and row edge of the label grid: short hairlines
    /// that stop 2 mm short of the grid, so no mark reaches into a label.
    func drawCutMarks(_ layout: LabelLayout) {
        let left = mm(layout.originX), top = mm(layout.originY)
        let right = left + mm(Double(layout.columns - 1) * layout.pitchX + layout.labelWidth)
        let bottom = top + mm(Double(layout.rows - 1) * layout.pitchY + layout.labelHeight)
        let gap = mm(2), length = mm(min(6, layout.originX - 3, layout.originY - 3))
        guard length > mm(1) else { return }
        var xs: [Double] = [], ys: [Double] = []
        for column in 0..<layout.columns {
            xs.append(mm(layout.originX + Double(column) * layout.pitchX))
            xs.append(mm(layout.originX + Double(column) * layout.pitchX + layout.labelWidth))
        }
        for row in 0..<layout.rows {
            ys.append(mm(layout.originY + Double(row) * layout.pitchY))
            ys.append(mm(layout.originY + Double(row) * layout.pitchY + layout.labelHeight))
        }
        cairo_new_path(context)
        for x in Set(xs.map { ($0 * 1000).rounded() / 1000 }) {
            cairo_move_to(context, x, top - gap); cairo_line_to(context, x, top - gap - length)
            cairo_move_to(context, x, bottom + gap); cairo_line_to(context, x, bottom + gap + length)
        }
        for y in Set(ys.map { ($0 * 1000).rounded() / 1000 }) {
            cairo_move_to(context, left - gap, y); cairo_line_to(context, left - gap - length, y)
            cairo_move_to(context, right + gap, y); cairo_line_to(context, right + gap + length, y)
        }
        stroke(.black, width: 0.3)
    }
}

extension Canvas {
    /// Draws a QR symbol in `box` (its quiet zone included). PDF pages and rasters get the symbol as a 1-bit image
    /// of one pixel per module, scaled without smoothing: in a PDF a stencil mask (`/ImageMask`, `/Interpolate
    /// false`) of a few hundred bytes where the outline took some 13 KB of coordinates to format and compress,
    /// and in the read-back raster the same bits, so the check decodes what the PDF carries. Edges fall exactly on
    /// module boundaries at any scale; nothing sits between neighbouring modules for a renderer to seam. SVG pages
    /// keep the vector outline (`outline` is evaluated only then), which sign makers' cutting tools need.
    func drawQR(_ bitmap: QRBitmap, outline: @autoclosure () -> [[(x: Int, y: Int)]], at box: Rect, module: Double) {
        guard !isSVG else {
            drawQR(outline: outline(), size: bitmap.size, at: box, module: module)
            return
        }
        let n = bitmap.size
        let originX = box.x + Double(QRMatrix.quietZone) * module
        let originY = box.y + Double(QRMatrix.quietZone) * module
        if isImage, drawWholePixelQR(bitmap, x: originX, y: originY, module: module) { return }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_A1, Int32(n), Int32(n))!
        defer { cairo_surface_destroy(surface) }
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface),
            Int(cairo_image_surface_get_stride(surface)) == bitmap.stride
        else {
            drawQR(outline: outline(), size: n, at: box, module: module)
            return
        }
        bitmap.words.withUnsafeBytes { words in
            UnsafeMutableRawPointer(data).copyMemory(from: words.baseAddress!, byteCount: bitmap.stride * n)
        }
        cairo_surface_mark_dirty(surface)
        let pattern = cairo_pattern_create_for_surface(surface)!
        defer { cairo_pattern_destroy(pattern) }
        cairo_pattern_set_filter(pattern, CAIRO_FILTER_NEAREST)
        save()
        translate(originX, originY)
        cairo_scale(context, module, module)
        setColor(.black)
        cairo_mask(context, pattern)
        restore()
    }

    /// On a raster where a module is a whole number of pixels and the symbol starts on a pixel corner (the read-back
    /// frame: 4 pixels a module), the same bits widened to pixels here: pixman composites an untransformed 8-bit mask
    /// on its fast path, and the scaled 1-bit one on its generic path, pixel by pixel. The pixels are the same.
    /// False, having drawn nothing, anywhere else.
    private func drawWholePixelQR(_ bitmap: QRBitmap, x: Double, y: Double, module: Double) -> Bool {
        var (originX, originY) = (x, y)
        cairo_user_to_device(context, &originX, &originY)
        var (acrossX, acrossY) = (module, 0.0)
        cairo_user_to_device_distance(context, &acrossX, &acrossY)
        var (downX, downY) = (0.0, module)
        cairo_user_to_device_distance(context, &downX, &downY)
        let scale = acrossX.rounded()
        func whole(_ value: Double) -> Bool { abs(value - value.rounded()) < 1e-6 }
        guard scale >= 1, scale <= 64, whole(acrossX), abs(acrossY) < 1e-9, abs(downX) < 1e-9,
            abs(downY - acrossX) < 1e-6, whole(originX), whole(originY)
        else { return false }
        let k = Int(scale), n = bitmap.size, side = n * k
        let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(side), Int32(side))!
        defer { cairo_surface_destroy(surface) }
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return false }
        let stride = Int(cairo_image_surface_get_stride(surface))
        for row in 0..<n {
            let first = data + row * k * stride
            first.update(repeating: 0, count: stride)
            for column in 0..<n where bitmap.isDark(row: row, column: column) {
                (first + column * k).update(repeating: 255, count: k)
            }
            for copy in 1..<k { (first + copy * stride).update(from: first, count: stride) }
        }
        cairo_surface_mark_dirty(surface)
        save()
        cairo_identity_matrix(context)
        setColor(.black)
        cairo_mask_surface(context, surface, originX.rounded(), originY.rounded())
        restore()
        return true
    }

    /// Draws a QR symbol in `box` (its quiet zone included): the outline of its dark modules, one path filled once,
    /// drawn in module units into a recording surface that is then painted scaled. PDF and SVG keep it as a vector
    /// form whose corners are small integers ("12 34 l", not "175.383 61.625 l"): a third smaller, and faster to
    /// write, than the same path in page coordinates. Raster targets replay it at full resolution.
    func drawQR(outline: [[(x: Int, y: Int)]], size: Int, at box: Rect, module: Double) {
        let originX = box.x + Double(QRMatrix.quietZone) * module
        let originY = box.y + Double(QRMatrix.quietZone) * module
        let n = Double(size)
        var extents = cairo_rectangle_t(x: 0, y: 0, width: n, height: n)
        let recording = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &extents)!
        let rc = cairo_create(recording)!
        for loop in outline {
            guard let first = loop.first else { continue }
            cairo_move_to(rc, Double(first.x), Double(first.y))
            for point in loop.dropFirst() { cairo_line_to(rc, Double(point.x), Double(point.y)) }
            cairo_close_path(rc)
        }
        cairo_set_source_rgb(rc, 0, 0, 0)
        cairo_fill(rc)
        cairo_destroy(rc)
        save()
        translate(originX, originY)
        cairo_scale(context, module, module)
        cairo_set_source_surface(context, recording, 0, 0)
        cairo_rectangle(context, 0, 0, n, n)
        cairo_fill(context)
        restore()
        cairo_surface_destroy(recording)
    }
}
