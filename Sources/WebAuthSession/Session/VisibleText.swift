import OpenIDConnect

/// The text a page shows, cut down for a message: what a person would read there, whitespace
/// collapsed, at most 300 characters, anything that looks like a token or code hidden (`TextRedaction`).
enum VisibleText {
    /// JavaScript that reads the page's visible text.
    static let script = "document.body ? document.body.innerText : ''"

    /// `text` as a message quotes it.
    static func excerpt(_ text: String) -> String {
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let cut = words.count > 300 ? String(words.prefix(300)) + "…" : words
        return TextRedaction.hidingTokenLikeRuns(in: cut)
    }
}
