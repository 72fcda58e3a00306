/// How a WebAuthn request ends for the page when it fails: the `DOMException` (or `TypeError`)
/// the page's promise is rejected with. Its message is for the page and the engine's log; it
/// never holds a challenge, a key or a signature.
public struct WebAuthnDOMError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The exception's name.
    public enum Name: String, Sendable, Hashable {
        /// The request was refused or timed out, or no authenticator could answer it (the spec
        /// gives no more detail, so a page cannot probe for credentials).
        case notAllowed = "NotAllowedError"
        /// Registration of a credential the authenticator already has (`excludeCredentials`).
        case invalidState = "InvalidStateError"
        /// The relying party ID or the origin is not allowed.
        case security = "SecurityError"
        /// The page's `AbortSignal` aborted it.
        case abort = "AbortError"
        /// No algorithm of `pubKeyCredParams` is supported.
        case notSupported = "NotSupportedError"
        /// The authenticator cannot meet `residentKey: required` or `userVerification: required`.
        case constraint = "ConstraintError"
        /// The options are malformed (a `TypeError`, not a `DOMException`).
        case type = "TypeError"
    }

    /// The exception's name.
    public let name: Name
    /// Its message.
    public let message: String

    /// An error named `name` saying `message`.
    public init(_ name: Name, _ message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(name.rawValue): \(message)" }
}
