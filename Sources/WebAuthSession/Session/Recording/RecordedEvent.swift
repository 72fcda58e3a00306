/// One message of the recorder's page script (``RecorderScript``): what the person did on which
/// page, with the element's selector and what the page showed of it. A password field's value is
/// never in it.
struct RecordedEvent: Sendable, Hashable, Decodable {
    /// What happened.
    enum Kind: String, Sendable, Hashable, Decodable {
        /// A document was loaded (its DOM is ready).
        case page
        /// Text was typed into a field, which then lost the focus (or was submitted).
        case field
        /// Enter was pressed in a field.
        case enter
        /// An element was clicked.
        case click
        /// A checkbox was ticked or cleared.
        case check, uncheck
        /// An option of a `<select>` was chosen.
        case select
        /// The page asked for a passkey (`text` is `create` or `get`).
        case passkey
        /// Something out of scope was met (an iframe, a closed shadow root); `text` says what.
        case note
    }

    let kind: Kind
    /// The document it happened in: a random name per loaded document.
    let page: String
    /// The document's host, path and title.
    let host: String
    let path: String
    let title: String
    /// The element's selector, checked unique on its page when recorded; `indexed` when it is a
    /// path by position because nothing stable was unique.
    var selector: String?
    var indexed: Bool?
    /// The element's tag, `type`, `autocomplete`, and its `name` (or `id`): where an environment
    /// variable's name comes from.
    var tag: String?
    var type: String?
    var autocomplete: String?
    var name: String?
    /// The element was seen disabled before it was used: the replay waits until it is enabled.
    var waitEnabled: Bool?
    /// A field: a password (its value is not sent), its value otherwise, its length when it is
    /// 6 to 8 digits (a one-time code), and whether the page handled the keys itself.
    var secret: Bool?
    var value: String?
    var digits: Int?
    var keys: Bool?
    /// A `<select>`'s chosen option.
    var option: String?
    /// A click's visible text (an account chooser's entry), or a note's or passkey's text.
    var text: String?
}
