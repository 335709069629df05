import Foundation
import TransitModel

/// Lays a route timetable out as a pocket timetable on landscape pages: stops as rows, trips as columns, in strips
/// of trips one under another, each strip with the stop column, as many to a page as fit. The type is the largest
/// (between 7 and 12 points on A4) that prints the timetable on the fewest pages, so a short table is set large
/// and a long one fills its pages. When the stops do not fit down a page even at the smallest size, the rows carry
/// on over pages, the stop column repeated.
struct RoutePosterComposer {
    let measurer: InkMeasurer
    let language: Language
    let layout: TimetableLayout
    /// The passenger locale's clock: times "15:05" or "3:05p".
    var clock: PassengerLocale.Clock = .twentyFourHour

    /// Type sizes tried, largest first (points, before the layout's scale).
    static let largestSize = 12.0, smallestSize = 7.0

    /// The table's geometry at one type size.
    struct Plan {
        var textSize: Double
        var rowHeight: Double
        var headRow: Double
        var stopWidth: Double
        var columnWidths: [Double]
        /// Trips of each strip.
        var strips: [Range<Int>]
        /// Stops of each page's part of a strip: all of them, unless they do not fit down a page.
        var rowBlocks: [Range<Int>]
        var stripsPerPage: Int
        var pages: Int
    }

    func compose(_ timetable: RouteTimetable, footer: String) -> [PosterPage] {
        let s = layout.scale
        let size = layout.pageSize
        let width = mm(size.height), height = mm(size.width)  // landscape
        let margin = mm(10)
        let left = margin, right = width - margin
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
        let names = timetable.stops.map {
            LabelComposer.clean($0.name) + ($0.code.map { " [\(LabelComposer.clean($0))]" } ?? "")
        }

        // The header: badge, and the route's name and direction wrapped beside it (two lines at most).
        let titleSize = 14 * s
        let titleLine = PosterType.line(top: 0, size: titleSize).height
        let label = measurer.fit(LabelComposer.clean(timetable.route.label), .bold, titleSize, width: mm(50))
        let badgeWidth = measurer.width(label, .bold, titleSize) + 10
        let title =
            (timetable.route.longName.map { LabelComposer.clean($0) + " · " } ?? "")
            + TimetableText.towards(LabelComposer.clean(timetable.headsign), language)
        let titleWidth = right - left - badgeWidth - mm(3)
        let wrappedTitle = measurer.wrapWords(
            title, .bold, size: titleSize, minimum: 10 * s, width: titleWidth - 1, maxLines: 2)
        let titleHeight = max(
            titleLine, Double(wrappedTitle.lines.count) * PosterType.line(top: 0, size: wrappedTitle.size).height)
        let headerHeight =
            titleHeight + PosterType.line(top: 0, size: 9 * s).height
            + (timetable.timepointsOnly ? PosterType.line(top: 0, size: 8 * s).height : 0)
        let tableTop = margin + headerHeight + mm(3)
        let legendLine = PosterType.line(top: 0, size: 7 * s).height
        let legendHeight = legend.isEmpty ? 0 : legendLine * Double((legend.count + 3) / 4) + 4
        let available = bottom - legendHeight - tableTop

        let plan = Self.choosePlan(
            (Self.smallestSize * s).stride(to: Self.largestSize * s), trips: timetable.trips, stops: names,
            tableWidth: right - left, available: available, measurer: measurer, language: language, clock: clock)

        var pages: [PosterPage] = []
        let stripGap = plan.rowHeight * 1.2
        // Pages: each row block of each group of strips.
        var groups: [[Range<Int>]] = []
        for first in stride(from: 0, to: plan.strips.count, by: plan.stripsPerPage) {
            groups.append(Array(plan.strips[first..<min(plan.strips.count, first + plan.stripsPerPage)]))
        }
        for group in groups {
            for rows in plan.rowBlocks {
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
                let fill = RGBColor(hex: timetable.route.color) ?? RGBColor(red: 0.2, green: 0.2, blue: 0.2)
                var ink = RGBColor(hex: timetable.route.textColor) ?? .white
                if ink.contrast(with: fill) < 3 { ink = fill.luminance > 0.4 ? .black : .white }
                page.fills.append(
                    PosterPage.Fill(
                        rect: Rect(x: left, y: y, width: badgeWidth, height: titleLine), color: fill,
                        radius: titleLine * 0.2))
                _ = text(label, .bold, titleSize, x: left + 4, top: y, width: badgeWidth - 8, color: ink)
                var titleTop = y + (titleLine - PosterType.line(top: 0, size: wrappedTitle.size).height) / 2
                for line in wrappedTitle.lines {
                    titleTop += text(
                        line, .bold, wrappedTitle.size, x: left + badgeWidth + mm(3), top: titleTop, width: titleWidth)
                }
                y += titleHeight
                let dateLine =
                    TimetableText.routeTimetableTitle(language) + " · "
                    + TimetableText.longDate(timetable.date, language) + " · "
                    + TimetableText.operators([LabelComposer.clean(timetable.agency.name)], language)
                    + (clock == .twelveHour ? " · " + TimetableText.twelveHourNote(language) : "")
                y += text(dateLine, .regular, 9 * s, x: left, top: y, width: right - left)
                if timetable.timepointsOnly {
                    y += text(TimetableText.timepointsNote(language), .regular, 8 * s, x: left, top: y, width: right - left)
                }
                y = tableTop
                for block in group {
                    y = drawStrip(
                        &page, timetable: timetable, plan: plan, block: block, rows: rows, names: names, marks: marks,
                        left: left, top: y) + stripGap
                }
                y -= stripGap - 4
                // Legend, four marks a line.
                var legendX = left
                let legendWidth = (right - left) / 4
                for (index, entry) in legend.enumerated() {
                    if index > 0 && index % 4 == 0 {
                        y += legendLine
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

    /// The plan at the largest size that needs the fewest pages.
    static func choosePlan(
        _ sizes: [Double], trips: [RouteTimetableTrip], stops names: [String], tableWidth: Double,
        available: Double, measurer: InkMeasurer, language: Language,
        clock: PassengerLocale.Clock = .twentyFourHour
    ) -> Plan {
        var best: Plan?
        for textSize in sizes.reversed() {
            let plan = Self.plan(
                textSize, trips: trips, stops: names, tableWidth: tableWidth, available: available, measurer: measurer,
                language: language, clock: clock)
            if best == nil || plan.pages < best!.pages { best = plan }
        }
        return best!
    }

    static func plan(
        _ textSize: Double, trips: [RouteTimetableTrip], stops names: [String], tableWidth: Double,
        available: Double, measurer: InkMeasurer, language: Language,
        clock: PassengerLocale.Clock = .twentyFourHour
    ) -> Plan {
        let rowHeight = textSize * 1.5
        let headRow = PosterType.line(top: 0, size: textSize).height + 3
        // The stop column takes what its longest name needs, up to a third of the width (longer names are cut).
        let stopWidth = min(
            tableWidth / 3, (names.map { measurer.width($0, .regular, textSize) }.max() ?? 40) + 10)
        let widest = TimetableText.widestClock(clock)
        let timeWidth = measurer.width(widest, .regular, textSize) + 0.7 * textSize + 3
        let rangeWidth = measurer.width(widest + "–" + widest, .regular, textSize) + 0.7 * textSize + 3
        let columnWidths = trips.map { trip -> Double in
            guard let headway = trip.headwaySeconds else { return timeWidth }
            return max(rangeWidth, measurer.width(TimetableText.every(headway, language), .bold, textSize) + 7)
        }
        let across = tableWidth - stopWidth
        // Strips that fit across, then the trips spread evenly over that many.
        func strips(atMost count: Int) -> [Range<Int>] {
            var result: [Range<Int>] = []
            var start = 0
            while start < columnWidths.count {
                var used = 0.0, end = start
                while end < columnWidths.count && end - start < count
                    && (end == start || used + columnWidths[end] <= across)
                {
                    used += columnWidths[end]
                    end += 1
                }
                result.append(start..<end)
                start = end
            }
            return result
        }
        var chosen = strips(atMost: .max)
        if chosen.count > 1 {
            let even = strips(atMost: (columnWidths.count + chosen.count - 1) / chosen.count)
            if even.count == chosen.count { chosen = even }
        }
        let stripHeight = headRow + Double(names.count) * rowHeight
        if stripHeight <= available {
            let perPage = max(1, Int((available + rowHeight * 1.2) / (stripHeight + rowHeight * 1.2)))
            return Plan(
                textSize: textSize, rowHeight: rowHeight, headRow: headRow, stopWidth: stopWidth,
                columnWidths: columnWidths, strips: chosen, rowBlocks: [0..<names.count], stripsPerPage: perPage,
                pages: (chosen.count + perPage - 1) / perPage)
        }
        let rowsPerPage = max(1, Int((available - headRow) / rowHeight))
        let rowBlocks = stride(from: 0, to: max(1, names.count), by: rowsPerPage).map {
            $0..<min(names.count, $0 + rowsPerPage)
        }
        return Plan(
            textSize: textSize, rowHeight: rowHeight, headRow: headRow, stopWidth: stopWidth,
            columnWidths: columnWidths, strips: chosen, rowBlocks: rowBlocks, stripsPerPage: 1,
            pages: chosen.count * rowBlocks.count)
    }

    /// One strip: the header row, then a row per stop of `rows` with the trips of `block`. Returns its foot.
    func drawStrip(
        _ page: inout PosterPage, timetable: RouteTimetable, plan: Plan, block: Range<Int>, rows: Range<Int>,
        names: [String], marks: [String: String], left: Double, top: Double
    ) -> Double {
        let textSize = plan.textSize, rowHeight = plan.rowHeight, stopWidth = plan.stopWidth
        func text(_ string: String, _ font: LabelFont, x: Double, top: Double, width: Double, align: Double = 0) {
            _ = page.addText(
                string, font, textSize, x: x, top: top, width: width, align: align, measurer: measurer)
        }
        let tableRight = left + stopWidth + block.reduce(0) { $0 + plan.columnWidths[$1] }
        var y = top
        page.fills.append(
            PosterPage.Fill(
                rect: Rect(x: left, y: y, width: tableRight - left, height: plan.headRow),
                color: StopPosterComposer.headerBand))
        text(TimetableText.stopHeading(language), .bold, x: left + 3, top: y + 1.5, width: stopWidth - 6)
        var x = left + stopWidth
        var columnX: [Double] = []
        for index in block {
            columnX.append(x)
            let trip = timetable.trips[index]
            var head = trip.headwaySeconds.map { TimetableText.every($0, language) } ?? ""
            if let mark = marks[trip.headsign] { head += head.isEmpty ? mark : " " + mark }
            if !head.isEmpty {
                text(head, .bold, x: x + 2, top: y + 1.5, width: plan.columnWidths[index] - 4, align: 0.5)
            }
            x += plan.columnWidths[index]
        }
        y += plan.headRow
        let regionTop = y
        for (position, row) in rows.enumerated() {
            if position % 2 == 1 {
                page.fills.append(
                    PosterPage.Fill(
                        rect: Rect(x: left, y: y, width: tableRight - left, height: rowHeight),
                        color: StopPosterComposer.band))
            }
            let lineTop = y + (rowHeight - PosterType.line(top: 0, size: textSize).height) / 2
            text(names[row], .regular, x: left + 3, top: lineTop, width: stopWidth - 6)
            for (offset, index) in block.enumerated() {
                let trip = timetable.trips[index]
                let cell: String
                if let time = trip.times[row] {
                    if trip.headwaySeconds != nil, let last = trip.lastTimes?[row] ?? nil {
                        cell = TimetableText.clock(time, clock) + "–" + TimetableText.clock(last, clock)
                    } else {
                        cell = TimetableText.clock(time, clock)
                    }
                } else {
                    cell = "–"
                }
                text(
                    cell, .regular, x: columnX[offset] + 2, top: lineTop, width: plan.columnWidths[index] - 4,
                    align: 0.5)
            }
            y += rowHeight
        }
        page.regions.append(
            PosterPage.Region(
                kind: "route", section: 0, column: block.lowerBound,
                rect: Rect(x: left, y: regionTop, width: tableRight - left, height: y - regionTop)))
        page.rules.append(
            PosterPage.Rule(from: (left + stopWidth, top), to: (left + stopWidth, y), width: 0.5, color: .black))
        page.rules.append(PosterPage.Rule(from: (left, y), to: (tableRight, y), width: 0.5, color: .black))
        return y
    }
}

extension Double {
    /// `self`, `self + 0.5`, … up to `end`: the type sizes tried.
    fileprivate func stride(to end: Double) -> [Double] {
        Swift.stride(from: self, through: end + 1e-9, by: 0.5).map { $0 }
    }
}

/// Footnote marks: a, b, … z, aa, ab …
enum RouteDatabaseMarks {
    static func mark(_ index: Int) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        return index < 26 ? String(letters[index]) : String(letters[index / 26 - 1]) + String(letters[index % 26])
    }
}
