/// A question for the person at the screen, answered Allow or Deny in a small window of its own
/// (the sign-in broker asks whether an app may use a sign-in another app made). Closing the window
/// denies. Ask it with ``WebAuthEngine/ask(_:)``.
public struct AccessQuestion: Sendable, Hashable {
    /// The window's title.
    public var title: String
    /// The question, one or two sentences.
    public var text: String
    /// The label of the button that allows (a mnemonic with `_`).
    public var allowLabel = "_Allow"
    /// The label of the button that denies (a mnemonic with `_`); it has the focus.
    public var denyLabel = "_Deny"
    /// A window of another program the question is transient for and modal to.
    public var parentWindow: ParentWindow?

    /// A question titled `title` asking `text`.
    public init(title: String, text: String) {
        self.title = title
        self.text = text
    }
}
