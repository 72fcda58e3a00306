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
