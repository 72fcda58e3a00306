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

extension WebAuthEngine {
    /// Asks `question` and waits for the person's answer: `true` when they allow.
    /// - Throws: ``WebAuthenticationError/noDisplayForWindow`` when no person could see the
    ///   window (no display: the answer is never a silent yes), ``WebAuthenticationError/noDisplay(_:)-swift.enum.case``,
    ///   ``WebAuthenticationError/invalidOption(_:)-swift.enum.case`` for a parent window that cannot be used,
    ///   ``WebAuthenticationError/engineShutDown``.
    @WebKitActor
    public static func ask(_ question: AccessQuestion) async throws(WebAuthenticationError) -> Bool {
        try GTKEnvironment.ready(forPerson: true)
        let window = try AccessQuestionWindow(question)
        return await window.answer()
    }
}
