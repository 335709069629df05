/// Feed text as the pages show it: a name of ten thousand characters must not make a page ten thousand lines
/// long. What is shown is cut to `shownLength` characters with an ellipsis; the page title, `title` attributes and
/// the pictures' text equivalents keep the whole text. Isolation from the text around it (an unterminated
/// right-to-left override in a name must not move the code badge after it) is the templates' `<bdi>`.
enum FeedText {
    static let shownLength = 120

    static func shown(_ text: String, limit: Int = shownLength) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }

    /// The whole text when `shown` cut it, else nil (for a `title` attribute).
    static func whole(_ text: String, limit: Int = shownLength) -> String? {
        text.count > limit ? text : nil
    }
}
