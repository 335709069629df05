import Foundation
import TransitModel

/// Lays a route timetable out as a pocket timetable on landscape pages: stops as rows, trips as columns; when the
/// trips do not fit across, the next page carries on with the stop column repeated, and when the stops do not
/// fit down, the rows carry on over pages the same way.
struct RoutePosterComposer {
    let measurer: InkMeasurer
    let language: Language
    let layout: TimetableLayout

    func compose(_ timetable: RouteTimetable, footer: String) -> [PosterPage] {
        let s = layout.scale
        let size = layout.pageSize
        let width = mm(size.height), height = mm(size.width)  // landscape
        let margin = mm(10)
        let left = margin, right = width - margin
        let textSize = 7 * s, headerSize = 7 * s
        let rowHeight = textSize * 1.5
        let footerSize = 7.0
        let bottom = height - margin - footerSize * 1.6

        // Headsign variants get a mark in their column's header, explained under the table.
        var marks: [String: String] = [:]
        var legend: [(mark: String, text: String)] = []
        for trip in timetable.trips where trip.headsign != timetable.headsign && marks[trip.headsign] == nil {
            let mark = RouteDatabaseMarks.mark(legend.count)
            marks[trip.headsign] = mark
            legend.append(
                (mark, TimetableText.towards(LabelComposer.clean(trip.headsign), language)))
        }

        let names = timetable.stops.map { LabelComposer.clean($0.name) + ($0.code.map { " [\(LabelComposer.clean($0))]" } ?? "") }
        let stopWidth = min(
            mm(75) * s, (names.map { measurer.width($0, .regular, textSize) }.max() ?? 40) + 10)
        let timeWidth = measurer.width("00:00", .regular, textSize) + 7
        let rangeWidth = measurer.width("00:00–00:00", .regular, textSize) + 7
        let columnWidths = timetable.trips.map { trip -> Double in
            trip.headwaySeconds == nil ? timeWidth : max(rangeWidth, measurer.width(TimetableText.every(trip.headwaySeconds!, language), .regular, headerSize) + 7)
        }

        // The header's height, the same on every page.
        let titleSize = 14 * s
        let headerLines = [
            PosterType.line(top: 0, size: titleSize).height, PosterType.line(top: 0, size: 9 * s).height,
            timetable.timepointsOnly ? PosterType.line(top: 0, size: 8 * s).height : 0,
        ]
        let tableTop = margin + headerLines.reduce(0, +) + mm(3)
        let headRow = PosterType.line(top: 0, size: headerSize).height + 3
        let legendHeight = legend.isEmpty ? 0 : PosterType.line(top: 0, size: 7 * s).height * Double((legend.count + 3) / 4) + 4
        let rowsPerPage = max(1, Int((bottom - legendHeight - tableTop - headRow) / rowHeight))

        // Column blocks that fit across a page.
        var blocks: [Range<Int>] = []
        var start = 0
        while start < columnWidths.count {
            var used = 0.0, end = start
            while end < columnWidths.count && (end == start || used + columnWidths[end] <= right - left - stopWidth) {
                used += columnWidths[end]
                end += 1
            }
            blocks.append(start..<end)
            start = end
        }
        let rowBlocks = stride(from: 0, to: max(1, names.count), by: rowsPerPage).map {
            $0..<min(names.count, $0 + rowsPerPage)
        }

        var pages: [PosterPage] = []
        for block in blocks {
            for rows in rowBlocks {
                var page = PosterPage(width: width, height: height)
                func text(
                    _ string: String, _ font: LabelFont, _ size: Double, x: Double, top: Double, width boxWidth: Double,
                    color: RGBColor = .black, align: Double = 0
                ) -> Double {
                    page.addText(
                        string, font, size, x: x, top: top, width: boxWidth, color: color, align: align,
                        measurer: measurer)
                }
                var y = margin
                // Header: badge and name, direction and date, operator.
                let label = measurer.fit(LabelComposer.clean(timetable.route.label), .bold, titleSize, width: mm(50))
                let badgeWidth = measurer.width(label, .bold, titleSize) + 10
                let fill = RGBColor(hex: timetable.route.color) ?? RGBColor(red: 0.2, green: 0.2, blue: 0.2)
                var ink = RGBColor(hex: timetable.route.textColor) ?? .white
                if ink.contrast(with: fill) < 3 { ink = fill.luminance > 0.4 ? .black : .white }
                page.fills.append(
                    PosterPage.Fill(
                        rect: Rect(x: left, y: y, width: badgeWidth, height: headerLines[0]), color: fill,
                        radius: headerLines[0] * 0.2))
                _ = text(label, .bold, titleSize, x: left + 4, top: y, width: badgeWidth - 8, color: ink)
                let title =
                    (timetable.route.longName.map { LabelComposer.clean($0) + " · " } ?? "")
                    + TimetableText.towards(LabelComposer.clean(timetable.headsign), language)
                _ = text(title, .bold, titleSize, x: left + badgeWidth + mm(3), top: y, width: right - left - badgeWidth - mm(3))
                y += headerLines[0]
                let dateLine =
                    TimetableText.routeTimetableTitle(language) + " · "
                    + TimetableText.longDate(timetable.date, language) + " · "
                    + TimetableText.operators([LabelComposer.clean(timetable.agency.name)], language)
                y += text(dateLine, .regular, 9 * s, x: left, top: y, width: right - left)
                if timetable.timepointsOnly {
                    y += text(TimetableText.timepointsNote(language), .regular, 8 * s, x: left, top: y, width: right - left)
                }
                y = tableTop
                // Column headers.
                page.fills.append(
                    PosterPage.Fill(rect: Rect(x: left, y: y, width: right - left, height: headRow), color: StopPosterComposer.headerBand))
                _ = text(TimetableText.stopHeading(language), .bold, headerSize, x: left + 3, top: y + 1.5, width: stopWidth - 6)
                var x = left + stopWidth
                var columnX: [Double] = []
                for index in block {
                    columnX.append(x)
                    let trip = timetable.trips[index]
                    var head = trip.headwaySeconds.map { TimetableText.every($0, language) } ?? ""
                    if let mark = marks[trip.headsign] { head += head.isEmpty ? mark : " " + mark }
                    if !head.isEmpty {
                        _ = text(head, .bold, headerSize, x: x + 2, top: y + 1.5, width: columnWidths[index] - 4, align: 0.5)
                    }
                    x += columnWidths[index]
                }
                y += headRow
                let regionTop = y
                for (position, row) in rows.enumerated() {
                    if position % 2 == 1 {
                        page.fills.append(
                            PosterPage.Fill(
                                rect: Rect(x: left, y: y, width: x - left, height: rowHeight), color: StopPosterComposer.band))
                    }
                    let top = y + (rowHeight - PosterType.line(top: 0, size: textSize).height) / 2
                    _ = text(names[row], .regular, textSize, x: left + 3, top: top, width: stopWidth - 6)
                    for (offset, index) in block.enumerated() {
                        let trip = timetable.trips[index]
                        let cell: String
                        if let time = trip.times[row] {
                            if trip.headwaySeconds != nil, let last = trip.lastTimes?[row] ?? nil {
                                cell = TimetableText.clock(time) + "–" + TimetableText.clock(last)
                            } else {
                                cell = TimetableText.clock(time)
                            }
                        } else {
                            cell = "–"
                        }
                        _ = text(cell, .regular, textSize, x: columnX[offset] + 2, top: top, width: columnWidths[index] - 4, align: 0.5)
                    }
                    y += rowHeight
                }
                page.regions.append(
                    PosterPage.Region(
                        kind: "route", section: 0, column: block.lowerBound,
                        rect: Rect(x: left, y: regionTop, width: x - left, height: y - regionTop)))
                page.rules.append(PosterPage.Rule(from: (left + stopWidth, tableTop), to: (left + stopWidth, y), width: 0.5, color: .black))
                page.rules.append(PosterPage.Rule(from: (left, y), to: (x, y), width: 0.5, color: .black))
                y += 4
                // Legend, four marks a line.
                var legendX = left
                let legendWidth = (right - left) / 4
                for (index, entry) in legend.enumerated() {
                    if index > 0 && index % 4 == 0 {
                        y += PosterType.line(top: 0, size: 7 * s).height
                        legendX = left
                    }
                    _ = text("\(entry.mark)  \(entry.text)", .regular, 7 * s, x: legendX, top: y, width: legendWidth - 4)
                    legendX += legendWidth
                }
                pages.append(page)
            }
        }
        for index in pages.indices {
            var page = pages[index]
            let line = "\(LabelComposer.clean(footer)) · \(TimetableText.page(index + 1, of: pages.count, language))"
            let top = bottom + 2
            let lineBox = PosterType.line(top: top, size: footerSize)
            let shown = measurer.fit(line, .regular, footerSize, width: right - left - 1)
            page.texts.append(
                PosterPage.Text(
                    text: shown, font: .regular, size: footerSize, color: StopPosterComposer.grey, x: left,
                    baseline: lineBox.baseline, box: Rect(x: left - 1, y: top, width: right - left + 2, height: lineBox.height)))
            pages[index] = page
        }
        return pages
    }
}

/// Footnote marks: a, b, … z, aa, ab …
enum RouteDatabaseMarks {
    static func mark(_ index: Int) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        return index < 26 ? String(letters[index]) : String(letters[index / 26 - 1]) + String(letters[index % 26])
    }
}
