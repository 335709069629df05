import Foundation
import StopCodes
import TransitModel

/// One stop, ready to draw: everything that depends on the payload, not on the page.
public struct PreparedLabel: Sendable, Hashable {
    public var stop: LabelStop
    /// The stop code (or ID, for `{stop_id}` templates): printed large, typed at the kiosk, in the barcode.
    public var value: String
    /// What the QR code holds.
    public var payload: String
    public var qr: QRMatrix
    /// The Code 128 symbol of `value`, when barcodes are on.
    public var barcode: Code128?
}

/// The words printed on every label besides the stop's own data: the manual fallback, in Spanish and English.
/// `{code}` is replaced by the stop's code.
public struct LabelTexts: Sendable, Hashable {
    public var fallbackSpanish: String
    public var fallbackEnglish: String

    public init(
        fallbackSpanish: String = "o escriba {code} en el quiosco",
        fallbackEnglish: String = "or type {code} at the kiosk"
    ) {
        self.fallbackSpanish = fallbackSpanish
        self.fallbackEnglish = fallbackEnglish
    }

    func fallback(_ code: String) -> String {
        fallbackSpanish.replacingOccurrences(of: "{code}", with: code) + " / "
            + fallbackEnglish.replacingOccurrences(of: "{code}", with: code)
    }
}

/// The fixed regions of a label of a given size, in points from the label's top-left corner. They depend only
/// on the cell size, so the QR module size of a layout is known before any text is set.
///
/// ```
///  ┌────────────────────────────────────────────┐
///  │ ┌────────────┐  2201                        │  column: the code (large), the name (wrapped,
///  │ │  QR code   │  Name of the stop            │  shrunk), route badges, and at its foot the
///  │ │ with quiet │  [L1] [TB]                   │  optional barcode
///  │ │    zone    │  ║│║║│║│║║│║│║               │
///  │ └────────────┘  ║│║║│║│║║│║│║               │
///  │ o escriba 2201 en el quiosco / or type …   │  band: the manual fallback, the agency
///  │ Agency                                     │
///  └────────────────────────────────────────────┘
/// ```
struct LabelGeometry: Sendable {
    var width: Double
    var height: Double
    /// Scale of the design against the 100 × 70 mm reference label.
    var unit: Double
    var padding: Double
    /// The QR symbol and its quiet zone (white, nothing else may be drawn there).
    var qrBox: Rect
    var column: Rect
    var band: Rect
    var fallbackSize: Double
    var agencySize: Double

    static let lineSpacing = 1.2
    /// Nothing on a label is set smaller than this (points): about 1.8 mm capitals, still legible close up.
    static let minimumTextSize = 5.0

    init(widthMM: Double, heightMM: Double) {
        width = mm(widthMM)
        height = mm(heightMM)
        unit = min(widthMM / 100, heightMM / 70)
        padding = mm(max(1.5, 3 * unit))
        fallbackSize = max(Self.minimumTextSize, 8.5 * unit)
        agencySize = max(Self.minimumTextSize, 7.5 * unit)
        let bandHeight = (fallbackSize + agencySize) * Self.lineSpacing + mm(1) * unit
        let side = min(width * 0.52, height - 2 * padding - bandHeight)
        qrBox = Rect(x: padding, y: padding, width: side, height: side)
        let columnX = qrBox.maxX + mm(1.5) * unit
        column = Rect(x: columnX, y: padding, width: width - columnX - padding, height: side)
        band = Rect(x: padding, y: qrBox.maxY, width: width - 2 * padding, height: height - padding - qrBox.maxY)
    }

    /// The QR module size of `matrix`: the QR box holds its modules plus the quiet zone on each side.
    func moduleSize(_ matrix: QRMatrix) -> Double { qrBox.width / Double(matrix.sizeWithQuietZone) }

    /// The barcode's box (quiet zones included) at the foot of the column, and its module width.
    func barcodeBox(_ code: Code128) -> (box: Rect, module: Double) {
        let modules = Double(code.moduleCount + 2 * Code128.quietZone)
        let module = min(mm(0.5), column.width / modules)
        let barHeight = max(mm(5), qrBox.height * 0.2)
        return (Rect(x: column.x, y: column.maxY - barHeight, width: module * modules, height: barHeight), module)
    }

    /// Below this, office printers close the gaps between bars and scanners misread the widths.
    static let minimumBarModule = mm(0.25)
}

/// Positioned text.
struct TextRun: Sendable, Hashable {
    var text: String
    var font: LabelFont
    var size: Double
    var x: Double
    var baseline: Double
    var color: RGBColor
}

/// A filled (and optionally outlined) rounded rectangle: a route badge.
struct Badge: Sendable, Hashable {
    var rect: Rect
    var fill: RGBColor
    var outline: RGBColor?
}

/// A label laid out: what to draw, in points from the label's top-left corner.
struct ComposedLabel: Sendable {
    var prepared: PreparedLabel {
        didSet { qrBitmap = QRBitmap(prepared.qr) }
    }
    var geometry: LabelGeometry
    var module: Double
    /// `prepared.qr` as a 1-bit image, made once: the read-back raster and the page draw the same bits.
    var qrBitmap: QRBitmap
    var badges: [Badge]
    var texts: [TextRun]
    var barcodeBox: Rect?
    var barModule: Double
    /// A proof copy: a red frame round the label, and the proof line in place of the agency.
    var proof = false
    /// Things a person should know (characters the font lacks, a name shortened).
    var warnings: [String]
}

/// Lays labels out: fits the texts into the regions of `LabelGeometry`.
final class LabelComposer {
    let measurer: TextMeasurer
    let texts: LabelTexts

    init(measurer: TextMeasurer, texts: LabelTexts) {
        self.measurer = measurer
        self.texts = texts
    }

    /// `proof`: a proof copy, marked in red (see `ProofMark`).
    func compose(_ label: PreparedLabel, geometry g: LabelGeometry, proof: Bool = false) -> ComposedLabel {
        var runs: [TextRun] = []
        var badges: [Badge] = []
        var warnings: [String] = []
        let column = g.column
        let value = Self.clean(label.value)
        let name = Self.clean(label.stop.name)
        let ink = RGBColor.black

        // The stop code: as large as the column allows, never shortened (it is what people type).
        let codeHeightLimit = g.qrBox.height * 0.28
        let codeInk = measurer.inkHeight(value, .bold)
        let codeMax = min(codeHeightLimit / max(codeInk.above, 0.5), 60 * g.unit + 12)
        let code = fit(
            value, font: .bold, width: column.width, height: codeHeightLimit, maxLines: 6,
            sizes: 4...codeMax, spacing: 1.05, breakAnywhere: true, ellipsis: false)
        var y = column.y
        for (index, line) in code.lines.enumerated() {
            let baseline = y + (index == 0 ? codeInk.above * code.size : code.size * 1.05)
            runs.append(TextRun(text: line, font: .bold, size: code.size, x: column.x, baseline: baseline, color: ink))
            y = baseline
        }
        y += max(codeInk.below * code.size, 0) + mm(1.5) * g.unit

        // The foot of the column: barcode, then route badges above it.
        var bottom = column.maxY
        var barcodeBox: Rect?
        var barModule = 0.0
        if let barcode = label.barcode {
            let placed = g.barcodeBox(barcode)
            barcodeBox = placed.box
            barModule = placed.module
            bottom = placed.box.y - mm(1) * g.unit
        }

        // Route badges: as many rows as needed up to two; what does not fit becomes "+N".
        let badgeSize = max(LabelGeometry.minimumTextSize, 8 * g.unit)
        let badgeHeight = badgeSize * 1.5
        let padX = badgeSize * 0.45, gap = badgeSize * 0.35
        let routeNames = label.stop.routes.map { Self.clean($0.name) }
        var rows: [[(index: Int, text: String, width: Double)]] = [[]]
        var rowWidth = 0.0
        var overflow = 0
        for (index, routeName) in routeNames.enumerated() {
            var text = routeName
            var width = measurer.width(text, .bold) * badgeSize + 2 * padX
            if width > column.width {
                text = ellipsize(text, font: .bold, size: badgeSize, width: column.width - 2 * padX)
                width = measurer.width(text, .bold) * badgeSize + 2 * padX
            }
            if rowWidth > 0, rowWidth + gap + width > column.width {
                if rows.count == 2 { overflow = routeNames.count - index; break }
                rows.append([])
                rowWidth = 0
            }
            rows[rows.count - 1].append((index, text, width))
            rowWidth += (rowWidth > 0 ? gap : 0) + width
        }
        if overflow > 0 {
            // Make room for "+N" on the last row (measured with two digits, which covers any realistic count).
            let moreWidth = measurer.width("+88", .bold) * badgeSize
            var last = rows[rows.count - 1]
            var used = last.reduce(0) { $0 + $1.width } + Double(max(0, last.count - 1)) * gap
            while !last.isEmpty, used + gap + moreWidth > column.width {
                let removed = last.removeLast()
                used -= removed.width + (last.isEmpty ? 0 : gap)
                overflow += 1
            }
            rows[rows.count - 1] = last
        }
        let usedRows = rows.filter { !$0.isEmpty }
        let badgesHeight =
            usedRows.isEmpty ? 0 : Double(usedRows.count) * badgeHeight + Double(usedRows.count - 1) * gap
        let nameBottom = bottom - (badgesHeight > 0 ? badgesHeight + mm(1.5) * g.unit : 0)

        // The name: bold, wrapped, shrunk, and shortened with "…" only when even the smallest size overflows.
        let nameMax = max(LabelGeometry.minimumTextSize, 13 * g.unit)
        let nameMin = max(LabelGeometry.minimumTextSize, 6 * g.unit)
        let nameFit = fit(
            name, font: .bold, width: column.width, height: max(0, nameBottom - y),
            maxLines: 8, sizes: nameMin...nameMax, spacing: LabelGeometry.lineSpacing,
            breakAnywhere: true, ellipsis: true)
        let nameAscent = measurer.metrics(.bold).ascent * nameFit.size
        for (index, line) in nameFit.lines.enumerated() {
            runs.append(
                TextRun(
                    text: line, font: .bold, size: nameFit.size, x: column.x,
                    baseline: y + nameAscent + Double(index) * nameFit.size * LabelGeometry.lineSpacing, color: ink))
        }
        if nameFit.truncated { warnings.append("the name was shortened to fit the label") }
        let nameEnd = y + Double(nameFit.lines.count) * nameFit.size * LabelGeometry.lineSpacing

        // Badges go right under the name (or under the code when there is no name).
        var badgeY = max(nameEnd + mm(1.5) * g.unit, y)
        badgeY = min(badgeY, nameBottom + (badgesHeight > 0 ? mm(1.5) * g.unit : 0))
        let badgeAscent = measurer.metrics(.bold).capHeight * badgeSize
        for row in usedRows {
            var x = column.x
            for item in row {
                let route = label.stop.routes[item.index]
                let fill = route.color ?? .white
                let outline: RGBColor? = fill.contrast(with: .white) < 1.4 ? .black : nil
                var textColor =
                    route.textColor ?? (fill.contrast(with: .black) >= fill.contrast(with: .white) ? .black : .white)
                if fill.contrast(with: textColor) < 3 {
                    textColor = fill.contrast(with: .black) >= fill.contrast(with: .white) ? .black : .white
                }
                let rect = Rect(x: x, y: badgeY, width: item.width, height: badgeHeight)
                badges.append(Badge(rect: rect, fill: fill, outline: outline))
                runs.append(
                    TextRun(
                        text: item.text, font: .bold, size: badgeSize, x: x + padX,
                        baseline: badgeY + (badgeHeight + badgeAscent) / 2, color: textColor))
                x += item.width + gap
            }
            if item(rowIsLast: row, of: usedRows), overflow > 0 {
                runs.append(
                    TextRun(
                        text: "+\(overflow)", font: .bold, size: badgeSize, x: x,
                        baseline: badgeY + (badgeHeight + badgeAscent) / 2, color: ink))
            }
            badgeY += badgeHeight + gap
        }

        // The band under the QR code: the manual fallback, then the agency.
        let band = g.band
        let fallback = fit(
            texts.fallback(value), font: .regular, width: band.width, height: g.fallbackSize * 1.2, maxLines: 1,
            sizes: LabelGeometry.minimumTextSize...g.fallbackSize, spacing: 1.2, breakAnywhere: true, ellipsis: true)
        let fallbackAscent = measurer.metrics(.regular).ascent * fallback.size
        var bandY = band.y + mm(0.8) * g.unit
        if let line = fallback.lines.first {
            runs.append(
                TextRun(
                    text: line, font: .regular, size: fallback.size, x: band.x, baseline: bandY + fallbackAscent,
                    color: ink))
        }
        bandY += g.fallbackSize * LabelGeometry.lineSpacing
        let agencyText = label.stop.agencies.map(Self.clean).filter { !$0.isEmpty }.joined(separator: " · ")
        if proof {
            // The proof line, in both languages as the fallback is; the short form on a narrow label.
            let placeholder = PlaceholderAddress.host(ofAddress: label.payload) != nil
            let sentence = ProofMark.text(placeholder: placeholder, .es) + " / "
                + ProofMark.text(placeholder: placeholder, .en)
            var mark = Fitted(lines: [], size: LabelGeometry.minimumTextSize, truncated: false)
            let medium = "PRUEBA / PROOF — dirección de ejemplo / placeholder address"
            for candidate in placeholder ? [sentence, medium, ProofMark.short] : [sentence, ProofMark.short] {
                mark = fit(
                    candidate, font: .bold, width: band.width, height: g.agencySize * 1.2, maxLines: 1,
                    sizes: LabelGeometry.minimumTextSize...g.agencySize, spacing: 1.2, breakAnywhere: true,
                    ellipsis: true)
                if !mark.truncated { break }
            }
            if let line = mark.lines.first {
                runs.append(
                    TextRun(
                        text: line, font: .bold, size: mark.size, x: band.x,
                        baseline: bandY + measurer.metrics(.bold).ascent * mark.size, color: ProofMark.color))
            }
        } else if !agencyText.isEmpty {
            let agency = fit(
                agencyText, font: .regular, width: band.width, height: g.agencySize * 1.2, maxLines: 1,
                sizes: LabelGeometry.minimumTextSize...g.agencySize, spacing: 1.2, breakAnywhere: true, ellipsis: true)
            if let line = agency.lines.first {
                runs.append(
                    TextRun(
                        text: line, font: .regular, size: agency.size, x: band.x,
                        baseline: bandY + measurer.metrics(.regular).ascent * agency.size,
                        color: RGBColor(red: 0.2, green: 0.2, blue: 0.2)))
            }
        }

        let missing = measurer.missingCharacters(name + agencyText + routeNames.joined(), .bold)
        if !missing.isEmpty {
            let list = missing.prefix(12).map { String($0) }.joined()
            warnings.append(
                "the label font (\(LabelFont.family)) has no glyphs for \(missing.count) character\(missing.count == 1 ? "" : "s") (\(list)); they print as empty boxes"
            )
        }
        return ComposedLabel(
            prepared: label, geometry: g, module: g.moduleSize(label.qr), qrBitmap: QRBitmap(label.qr), badges: badges,
            texts: runs,
            barcodeBox: barcodeBox, barModule: barModule, proof: proof, warnings: warnings)
    }

    private func item(
        rowIsLast row: [(index: Int, text: String, width: Double)],
        of rows: [[(index: Int, text: String, width: Double)]]
    ) -> Bool {
        row.first?.index == rows.last?.first?.index
    }

    // MARK: - Text fitting

    struct Fitted {
        var lines: [String]
        var size: Double
        var truncated: Bool
    }

    /// The largest size in `sizes` at which `text` wraps into at most `maxLines` lines of `width` points that
    /// fit `height`. When even the smallest size overflows, the lines that fit are kept and the last ends in
    /// "…" (`ellipsis`), or every line is kept (`!ellipsis`: text that must never be shortened).
    func fit(
        _ text: String, font: LabelFont, width: Double, height: Double, maxLines: Int, sizes: ClosedRange<Double>,
        spacing: Double, breakAnywhere: Bool, ellipsis: Bool
    ) -> Fitted {
        guard !text.isEmpty, width > 0 else { return Fitted(lines: [], size: sizes.upperBound, truncated: false) }
        var size = sizes.upperBound
        while true {
            let allowed = min(maxLines, Int((height + 0.01) / (size * spacing)))
            let lines = wrap(text, font: font, width: width / size, breakAnywhere: breakAnywhere)
            if allowed >= 1, lines.count <= allowed { return Fitted(lines: lines, size: size, truncated: false) }
            let next = size * 0.94
            if next < sizes.lowerBound {
                if size > sizes.lowerBound { size = sizes.lowerBound; continue }
                break
            }
            size = next
        }
        size = sizes.lowerBound
        let lines = wrap(text, font: font, width: width / size, breakAnywhere: breakAnywhere)
        guard ellipsis else { return Fitted(lines: lines, size: size, truncated: false) }
        let allowed = max(1, min(maxLines, Int((height + 0.01) / (size * spacing))))
        if lines.count <= allowed { return Fitted(lines: lines, size: size, truncated: false) }
        var kept = Array(lines.prefix(allowed))
        kept[allowed - 1] = ellipsize(
            kept[allowed - 1] + " " + lines[allowed], font: font, size: size, width: width, force: true)
        return Fitted(lines: kept, size: size, truncated: true)
    }

    /// Greedy line breaking at spaces (widths at font size 1); a word wider than a line is broken between
    /// characters when `breakAnywhere`, else left to overflow.
    func wrap(_ text: String, font: LabelFont, width: Double, breakAnywhere: Bool) -> [String] {
        let space = measurer.width(" ", font)
        var lines: [String] = []
        var line = ""
        var lineWidth = 0.0
        for word in text.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            let wordWidth = measurer.width(word, font)
            if line.isEmpty, wordWidth <= width {
                line = word; lineWidth = wordWidth
            } else if !line.isEmpty, lineWidth + space + wordWidth <= width {
                line += " " + word; lineWidth += space + wordWidth
            } else if wordWidth <= width || !breakAnywhere {
                if !line.isEmpty { lines.append(line) }
                line = word; lineWidth = wordWidth
            } else {
                // Break the word: fill the current line's remainder first only if the line is empty.
                if !line.isEmpty { lines.append(line); line = ""; lineWidth = 0 }
                var piece = ""
                var pieceWidth = 0.0
                for character in word {
                    let w = measurer.width(String(character), font)
                    if !piece.isEmpty, pieceWidth + w > width {
                        lines.append(piece)
                        piece = ""; pieceWidth = 0
                    }
                    piece.append(character); pieceWidth += w
                }
                line = piece; lineWidth = pieceWidth
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// `text` shortened at the end, with "…", to fit `width` points; unchanged when it fits and not `force`.
    func ellipsize(_ text: String, font: LabelFont, size: Double, width: Double, force: Bool = false) -> String {
        let limit = width / size
        if !force, measurer.width(text, font) <= limit { return text }
        let ellipsisWidth = measurer.width("…", font)
        var result = ""
        var used = 0.0
        for character in text {
            let w = measurer.width(String(character), font)
            if used + w + ellipsisWidth > limit { break }
            result.append(character)
            used += w
        }
        while result.last == " " || result.last == "," || result.last == "-" { result.removeLast() }
        return result + "…"
    }

    /// Feed text made safe to draw: control, escape, bidirectional-override and invisible format characters
    /// removed, white space collapsed (the same cleaning the terminal gets, without its length cap: the
    /// fitter shortens what does not fit).
    static func clean(_ text: String) -> String {
        TerminalText.sanitize(text, maxLength: 1000).trimmingCharacters(in: .whitespaces)
    }
}
