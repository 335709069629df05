/// Where labels go on a page: the page size, the label cells, and whether cut marks are drawn.
///
/// All sizes are in millimetres, as label stock is sold; drawing converts to points.
public struct LabelLayout: Sendable, Hashable {
    /// The name `--layout` takes.
    public var name: String
    /// One line for `--help`.
    public var summary: String
    public var pageWidth: Double
    public var pageHeight: Double
    public var labelWidth: Double
    public var labelHeight: Double
    public var columns: Int
    public var rows: Int
    /// Top-left corner of the first cell.
    public var originX: Double
    public var originY: Double
    /// Distance between the left edges of neighbouring columns, and the top edges of neighbouring rows.
    public var pitchX: Double
    public var pitchY: Double
    /// Crop marks in the page margin at every cell edge, for cutting sheets on a guillotine. Off for die-cut
    /// label stock, where the cuts are already made.
    public var cutMarks: Bool
    /// A line at the foot of each page (feed, page number) for sheets with room for it.
    public var footer: Bool

    /// The smallest QR module the labels accept, in millimetres. Below about 0.4 mm, ordinary office
    /// printers smear modules together and phone cameras must come close enough to lose focus.
    public static let minimumModuleMM = 0.4

    public var labelsPerPage: Int { columns * rows }

    /// Cell `index` (0-based, row by row) on its page, in millimetres.
    func cell(_ index: Int) -> (x: Double, y: Double) {
        let slot = index % labelsPerPage
        return (originX + Double(slot % columns) * pitchX, originY + Double(slot / columns) * pitchY)
    }

    /// One label per page, 100 × 70 mm: for label printers and for a single replacement label.
    public static let single = LabelLayout(
        name: "single", summary: "one 100 × 70 mm label per page (label printers, single replacements)",
        pageWidth: 100, pageHeight: 70, labelWidth: 100, labelHeight: 70, columns: 1, rows: 1,
        originX: 0, originY: 0, pitchX: 100, pitchY: 70, cutMarks: false, footer: false)

    /// Eight 95 × 65 mm labels on A4 (2 × 4), abutting, with cut marks: print on adhesive A4 and cut.
    public static let a4 = LabelLayout(
        name: "a4", summary: "A4 sheet of 8 labels of 95 × 65 mm (2 × 4) with cut marks",
        pageWidth: 210, pageHeight: 297, labelWidth: 95, labelHeight: 65, columns: 2, rows: 4,
        originX: 10, originY: 18.5, pitchX: 95, pitchY: 65, cutMarks: true, footer: true)

    /// 21 labels of 63.5 × 38.1 mm (3 × 7) on A4 die-cut stock (the common "L7160" sheet): small labels for
    /// shelters and timetable cases. Signed URLs at high error correction do not fit here.
    public static let a4x21 = LabelLayout(
        name: "a4-21", summary: "A4 die-cut sheet of 21 labels of 63.5 × 38.1 mm (3 × 7, L7160 stock), no cut marks",
        pageWidth: 210, pageHeight: 297, labelWidth: 63.5, labelHeight: 38.1, columns: 3, rows: 7,
        originX: 7.25, originY: 15.15, pitchX: 66.0, pitchY: 38.1, cutMarks: false, footer: false)

    public static let all: [LabelLayout] = [.single, .a4, .a4x21]

    public static func named(_ name: String) -> LabelLayout? { all.first { $0.name == name.lowercased() } }
}
