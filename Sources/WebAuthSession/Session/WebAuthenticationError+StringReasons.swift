extension WebAuthenticationError {
    /// A ``noDisplay(_:)-swift.enum.case`` whose reason is only text.
    @available(*, deprecated, message: "give a NoDisplayReason: .noDisplay(.other(message)), or the case that says why")
    public static func noDisplay(_ message: String) -> WebAuthenticationError { .noDisplay(.other(message)) }

    /// An ``invalidOption(_:)-swift.enum.case`` whose reason is only text.
    @available(*, deprecated, message: "give an InvalidOptionReason: .invalidOption(.other(message)), or the case that says why")
    public static func invalidOption(_ message: String) -> WebAuthenticationError { .invalidOption(.other(message)) }

    /// A ``browserUnavailable(_:)-swift.enum.case`` whose reason is only text.
    @available(*, deprecated, message: "give a BrowserUnavailableReason: .browserUnavailable(.other(message)), or the case that says why")
    public static func browserUnavailable(_ message: String) -> WebAuthenticationError { .browserUnavailable(.other(message)) }
}
