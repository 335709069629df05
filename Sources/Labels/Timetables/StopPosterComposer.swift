import Foundation
import TransitModel

/// Page sizes of printed timetables. `a4` and `a3` flow the routes one after another over portrait pages;
/// `single` gives each route and direction an A4 page of its own, each with the stop's header and QR code (a
/// poster per pole or per frame).
public enum TimetableLayout: String, Sendable, Hashable, CaseIterable {
    case a4, a3, single

    /// Portrait page size in millimetres.
    var pageSize: (width: Double, height: Double) {
        switch self {
        case .a4, .single: return (210, 297)
        case .a3: return (297, 420)
        }
    }

    /// Type and QR sizes relative to A4.
    var scale: Double { self == .a3 ? 1.35 : 1 }
}

/// Shared geometry of both composers: line boxes and text placement.
struct PosterType {
    /// A line of `size` text: its box from `top`, and its baseline. DejaVu's accents reach 0.93 of the size above
    /// the baseline and descenders 0.24 below; the box leaves room for both.
    static func line(top: Double, size: Double) -> (baseline: Double, height: Double) {
        (top + size * 1.02, size * 1.34)
    }
}

/// Lays a stop timetable out on poster pages.
struct StopPosterComposer {
    let measurer: InkMeasurer
    let language: Language
    let layout: TimetableLayout
    /// The passenger locale's clock: hour rows "15" or "3p".
    var clock: PassengerLocale.Clock = .twentyFourHour
    /// The passenger locale's date style for the validity line; nil: the printers' own short dates.
    var dates: PassengerLocale.DateStyle? = nil

    struct Header {
        /// The QR payload (the stop's label URL, signed when the labels are) and the address printed beside it.
        var payload: String
        var qr: QRMatrix
        var displayURL: String
        /// The value passengers type: the stop code, else its ID.
        var code: String
        /// The foot of every page (the feed).
        var footer: String
    }

    static let grey = RGBColor(red: 0.35, green: 0.35, blue: 0.35)
    static let band = RGBColor(red: 0.93, green: 0.93, blue: 0.93)
    static let headerBand = RGBColor(red: 0.85, green: 0.85, blue: 0.85)

    func compose(_ timetable: StopTimetable, header: Header) -> [PosterPage] {
        let s = layout.scale
        let size = layout.pageSize
        let width = mm(size.width), height = mm(size.height)
        let margin = mm(12)
        let fullLeft = margin, fullRight = width - margin
        // Routes flow in lanes, as newspaper columns, when their tables are narrow: two across an A4 page (three
        // across an A3) for tables of one or two day types.
        let widest = timetable.sections.map(\.columns.count).max() ?? 1
        let lanes =
            layout == .single ? 1 : widest <= 2 ? (layout == .a3 ? 3 : 2) : (widest <= 3 && layout == .a3 ? 2 : 1)
        let laneGap = mm(6)
        let laneWidth = (fullRight - fullLeft - laneGap * Double(lanes - 1)) / Double(lanes)
        var lane = 0
        var left = fullLeft, right = fullLeft + laneWidth
        var laneTop = margin
        let footerSize = 7.0
        let bottom = height - margin - footerSize * 2.9
        var pages: [PosterPage] = []
        var page = PosterPage(width: width, height: height)
        var y = margin

        func text(
            _ string: String, _ font: LabelFont, _ size: Double, x: Double, top: Double, width boxWidth: Double,
            color: RGBColor = .black, align: Double = 0
        ) -> Double {
            page.addText(
                string, font, size, x: x, top: top, width: boxWidth, color: color, align: align, measurer: measurer)
        }
        /// The largest size up to `size` (not below `minimum`) at which `string` fits `boxWidth`.
        func fitted(_ string: String, _ font: LabelFont, _ size: Double, minimum: Double, width boxWidth: Double)
            -> Double
        {
            let natural = measurer.width(string, font, size)
            return natural <= boxWidth - 1 ? size : max(minimum, size * (boxWidth - 1) / natural)
        }

        func fullHeader() {
            let qrSide = mm(34) * s
            let liveWidth = qrSide + mm(18) * s
            let qrBox = Rect(x: fullRight - qrSide, y: y, width: qrSide, height: qrSide)
            page.codes.append(PosterPage.Code(matrix: header.qr, payload: header.payload, box: qrBox))
            var liveY = qrBox.maxY + 1
            let liveSize = 7 * s
            for line in measurer.wrap(TimetableText.liveHeading(language), .regular, liveSize, width: liveWidth - 2) {
                liveY += text(line, .regular, liveSize, x: fullRight - liveWidth, top: liveY, width: liveWidth, align: 1)
            }
            let urlSize = fitted(header.displayURL, .bold, 8 * s, minimum: 5.5, width: liveWidth)
            liveY += text(header.displayURL, .bold, urlSize, x: fullRight - liveWidth, top: liveY, width: liveWidth, align: 1)

            let textWidth = fullRight - liveWidth - mm(5) - fullLeft
            var top = y
            let name = TimetableText.stopTimetableTitle(language)
            top += text(name, .regular, 9 * s, x: fullLeft, top: top, width: textWidth, color: Self.grey)
            let stopName = LabelComposer.clean(timetable.stop.name)
            // A long stop name shrinks a little, then wraps between words (two lines, more only if it must).
            let nameLines = measurer.wrapWords(
                stopName, .bold, size: 24 * s, minimum: 16 * s, width: textWidth - 1, maxLines: 2)
            for line in nameLines.lines {
                top += text(line, .bold, nameLines.size, x: fullLeft, top: top, width: textWidth)
            }
            top += text(
                TimetableText.stopCode(LabelComposer.clean(header.code), language), .bold, 13 * s, x: fullLeft, top: top,
                width: textWidth)
            top += mm(1.5)
            if !timetable.agencies.isEmpty {
                for line in measurer.wrap(
                    TimetableText.operators(timetable.agencies.map { LabelComposer.clean($0.name) }, language),
                    .regular, 9 * s, width: textWidth - 1)
                {
                    top += text(line, .regular, 9 * s, x: fullLeft, top: top, width: textWidth)
                }
            }
            top += text(
                TimetableText.validity(
                    from: timetable.validFrom, until: timetable.validUntil, single: timetable.single, language,
                    dates: dates),
                .bold, 9 * s, x: fullLeft, top: top, width: textWidth)
            if !timetable.holidays.isEmpty {
                for line in measurer.wrap(
                    TimetableText.holidays(timetable.holidays, language), .regular, 8 * s, width: textWidth - 1)
                {
                    top += text(line, .regular, 8 * s, x: fullLeft, top: top, width: textWidth)
                }
            }
            y = max(top, liveY) + mm(2)
            page.rules.append(PosterPage.Rule(from: (fullLeft, y), to: (fullRight, y), width: 1, color: .black))
            y += mm(3)
        }

        func continuationHeader() {
            let stopName = LabelComposer.clean(timetable.stop.name)
            let line = "\(stopName) · \(TimetableText.stopCode(LabelComposer.clean(header.code), language))"
            let wrapped = measurer.wrapWords(
                line, .bold, size: 12 * s, minimum: 9 * s, width: fullRight - fullLeft - 1, maxLines: 2)
            for part in wrapped.lines {
                y += text(part, .bold, wrapped.size, x: fullLeft, top: y, width: fullRight - fullLeft)
            }
            y += mm(1)
            page.rules.append(PosterPage.Rule(from: (fullLeft, y), to: (fullRight, y), width: 0.6, color: .black))
            y += mm(3)
        }

        func newPage(full: Bool) {
            pages.append(page)
            page = PosterPage(width: width, height: height)
            y = margin
            if full { fullHeader() } else { continuationHeader() }
            lane = 0
            left = fullLeft
            right = fullLeft + laneWidth
            laneTop = y
        }

        /// The next lane of this page, else a new page.
        func advance() {
            if lane + 1 < lanes {
                lane += 1
                left = fullLeft + Double(lane) * (laneWidth + laneGap)
                right = left + laneWidth
                y = laneTop
            } else {
                newPage(full: layout == .single)
            }
        }

        fullHeader()
        laneTop = y
        let hourSize = 9 * s, minuteSize = 8.5 * s, noteSize = 7.5 * s, daySize = 8.5 * s
        let lineHeight = minuteSize * 1.45
        for (sectionIndex, section) in timetable.sections.enumerated() {
            if layout == .single && sectionIndex > 0 { newPage(full: true) }
            let columnCount = max(1, section.columns.count)
            let columnWidth = (right - left) / Double(columnCount)
            let hourCell = measurer.width(clock == .twelveHour ? "12p" : "00", .bold, hourSize) + 6
            var minuteCell = measurer.width("00", .regular, minuteSize)
            for column in section.columns {
                for hour in column.hours {
                    for entry in hour.entries {
                        minuteCell = max(minuteCell, measurer.width(TimetableText.minute(entry), .regular, minuteSize))
                    }
                }
            }
            minuteCell += 5 * s
            let perLine = max(1, Int((columnWidth - hourCell - 4) / minuteCell))

            // Rows: the frequency bands starting in an hour, then that hour's departures.
            struct Row { var hour: Int, bands: Bool }
            var rowKeys = Set<Int>()
            for column in section.columns {
                for band in column.bands { rowKeys.insert((band.first / 3600) * 2) }
                for hour in column.hours { rowKeys.insert(hour.hour * 2 + 1) }
            }
            let rows = rowKeys.sorted().map { Row(hour: $0 / 2, bands: $0 % 2 == 0) }
            func bandLines(_ column: TimetableColumn, _ hour: Int) -> [String] {
                column.bands.filter { $0.first / 3600 == hour }.flatMap { band in
                    measurer.wrap(
                        TimetableText.frequency(band, language, clock: clock)
                            + (band.marks.isEmpty ? "" : " (\(band.marks.joined(separator: ", ")))"),
                        .regular, minuteSize, width: columnWidth - 8)
                }
            }
            func rowHeight(_ row: Row) -> Double {
                var lines = 1
                for column in section.columns {
                    if row.bands {
                        lines = max(lines, bandLines(column, row.hour).count)
                    } else if let hour = column.hours.first(where: { $0.hour == row.hour }) {
                        lines = max(lines, (hour.entries.count + perLine - 1) / perLine)
                    }
                }
                return Double(lines) * lineHeight + 2
            }

            let badgeSize = 11 * s
            /// The route's badge and its heading ("to 109 Maryland Pkwy Northbound"): the heading wraps between
            /// words, up to three lines, shrinking only when three lines at the badge's size are not enough.
            func titleLayout(continued: Bool)
                -> (badge: String, badgeWidth: Double, lines: [String], size: Double, height: Double)
            {
                let shown = measurer.fit(LabelComposer.clean(section.route.label), .bold, badgeSize, width: mm(40))
                let badgeWidth = measurer.width(shown, .bold, badgeSize) + 10
                var title = TimetableText.towards(LabelComposer.clean(section.headsign), language)
                if continued { title += " " + TimetableText.continued(language) }
                let width = right - left - badgeWidth - mm(3)
                let wrapped = measurer.wrapWords(
                    title, .bold, size: badgeSize, minimum: 7 * s, width: width - 1, maxLines: 3)
                let lineHeight = PosterType.line(top: 0, size: wrapped.size).height
                let badgeHeight = badgeSize * 1.6
                let textHeight = (badgeHeight - lineHeight) / 2 + Double(wrapped.lines.count) * lineHeight
                return (shown, badgeWidth, wrapped.lines, wrapped.size, max(badgeHeight, textHeight) + mm(2))
            }
            let titleHeight = titleLayout(continued: false).height
            // Day-type headings ("Saturdays, Sundays and holidays") wrap between words in a narrow column, up to two
            // lines, shrinking only when two lines are not enough.
            let dayLabels = section.columns.map { column in
                measurer.wrapWords(
                    TimetableText.dayType(column.dayType, language), .bold, size: daySize, minimum: 6.5,
                    width: columnWidth - 7, maxLines: 2)
            }
            let dayHeight =
                (dayLabels.map { Double($0.lines.count) * PosterType.line(top: 0, size: $0.size).height }.max()
                    ?? PosterType.line(top: 0, size: daySize).height) + 4
            var regionTops: [Double] = Array(repeating: 0, count: columnCount)

            func sectionTitle(continued: Bool) {
                let layout = titleLayout(continued: continued)
                let shown = layout.badge, badgeWidth = layout.badgeWidth
                let fill = RGBColor(hex: section.route.color) ?? RGBColor(red: 0.2, green: 0.2, blue: 0.2)
                var ink = RGBColor(hex: section.route.textColor) ?? .white
                if ink.contrast(with: fill) < 3 { ink = fill.luminance > 0.4 ? .black : .white }
                let badge = Rect(x: left, y: y, width: badgeWidth, height: badgeSize * 1.6)
                page.fills.append(PosterPage.Fill(rect: badge, color: fill, radius: badge.height * 0.2))
                let line = PosterType.line(top: 0, size: badgeSize)
                let top = y + (badge.height - line.height) / 2
                _ = text(shown, .bold, badgeSize, x: left + 4, top: top, width: badgeWidth - 8, color: ink)
                // The first line beside the badge, centred on it as the badge's label is; the rest below.
                var lineTop = y + (badge.height - PosterType.line(top: 0, size: layout.size).height) / 2
                for line in layout.lines {
                    lineTop += text(
                        line, .bold, layout.size, x: badge.maxX + mm(3), top: lineTop,
                        width: right - badge.maxX - mm(3))
                }
                y += layout.height
            }
            func dayHeader() {
                page.fills.append(
                    PosterPage.Fill(rect: Rect(x: left, y: y, width: right - left, height: dayHeight), color: Self.headerBand))
                for (index, label) in dayLabels.enumerated() {
                    let x = left + Double(index) * columnWidth
                    var top = y + 2
                    for line in label.lines {
                        top += text(line, .bold, label.size, x: x + 3, top: top, width: columnWidth - 6)
                    }
                }
                y += dayHeight
                for index in 0..<columnCount { regionTops[index] = y }
            }
            func closeRegions() {
                for index in 0..<columnCount {
                    let x = left + Double(index) * columnWidth
                    page.regions.append(
                        PosterPage.Region(
                            kind: "column", section: sectionIndex, column: index,
                            rect: Rect(x: x, y: regionTops[index], width: columnWidth, height: y - regionTops[index])))
                }
            }

            let firstRow = rows.first.map(rowHeight) ?? 0
            if y + titleHeight + dayHeight + firstRow > bottom { advance() }
            sectionTitle(continued: false)
            dayHeader()
            for (rowIndex, row) in rows.enumerated() {
                let height = rowHeight(row)
                if y + height > bottom {
                    closeRegions()
                    advance()
                    sectionTitle(continued: true)
                    dayHeader()
                }
                if rowIndex % 2 == 1 {
                    page.fills.append(
                        PosterPage.Fill(rect: Rect(x: left, y: y, width: right - left, height: height), color: Self.band))
                }
                for (index, column) in section.columns.enumerated() {
                    let x = left + Double(index) * columnWidth
                    if index > 0 {
                        page.rules.append(
                            PosterPage.Rule(from: (x, y), to: (x, y + height), width: 0.4, color: Self.grey))
                    }
                    if row.bands {
                        var top = y + 1
                        for line in bandLines(column, row.hour) {
                            _ = text(line, .regular, minuteSize, x: x + 4, top: top, width: columnWidth - 8)
                            top += lineHeight
                        }
                    } else if let hour = column.hours.first(where: { $0.hour == row.hour }) {
                        _ = text(
                            TimetableText.hour(hour.hour, clock), .bold, hourSize, x: x + 3, top: y + 1, width: hourCell - 4)
                        for (position, entry) in hour.entries.enumerated() {
                            let line = position / perLine, slot = position % perLine
                            _ = text(
                                TimetableText.minute(entry), .regular, minuteSize,
                                x: x + hourCell + Double(slot) * minuteCell, top: y + 1 + Double(line) * lineHeight,
                                width: minuteCell - 2)
                        }
                    }
                }
                y += height
            }
            closeRegions()
            page.rules.append(PosterPage.Rule(from: (left, y), to: (right, y), width: 0.6, color: .black))
            y += mm(1.5)
            // Footnotes.
            for footnote in section.footnotes {
                let lines = measurer.wrap(
                    TimetableText.footnote(footnote.kind, language), .regular, noteSize, width: right - left - 20)
                let lineStep = PosterType.line(top: 0, size: noteSize).height
                if y + Double(lines.count) * lineStep > bottom { advance() }
                _ = text(footnote.mark, .bold, noteSize, x: left, top: y, width: 16)
                for line in lines {
                    y += text(line, .regular, noteSize, x: left + 18, top: y, width: right - left - 18)
                }
            }
            y += mm(5)
        }
        pages.append(page)
        // Footers, now that the page count is known.
        for index in pages.indices {
            let note = TimetableText.afterMidnightNote(language)
            let line = "\(LabelComposer.clean(header.footer)) · \(TimetableText.page(index + 1, of: pages.count, language))"
            let top = bottom + 1
            page = pages[index]
            _ = text(note, .regular, footerSize, x: fullLeft, top: top, width: fullRight - fullLeft, color: Self.grey)
            _ = text(line, .regular, footerSize, x: fullLeft, top: top + footerSize * 1.34, width: fullRight - fullLeft, color: Self.grey)
            pages[index] = page
        }
        return pages
    }
}
