/// Whether a token from a provider may be written where a header or a line protocol carries it
/// (git's `key=value` lines, Docker's JSON, a shell's `export`, an `Authorization` header).
public enum TokenText {
    /// How a token reads.
    public enum Verdict: Sendable, Hashable {
        /// RFC 6750's `b64token`: letters, digits and `-._~+/`, then `=` padding.
        case bearerToken
        /// Printable ASCII, but outside `b64token` (a provider's opaque format): usable, worth a warning.
        case printable
        /// A character outside `%x20-7E` (a newline, a control character, non-ASCII): never written
        /// out, as it could end a line and add attributes of its own (`quit=1`, `host=`).
        case unsafe
    }

    /// How `token` reads.
    public static func verdict(_ token: String) -> Verdict {
        let bytes = Array(token.utf8)
        guard !bytes.isEmpty, bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return .unsafe }
        let body = bytes.reversed().drop { $0 == UInt8(ascii: "=") }
        let tokenCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/".utf8)
        return !body.isEmpty && body.allSatisfy(tokenCharacters.contains) ? .bearerToken : .printable
    }

    /// Checks `token` before it goes to `recipient` as `secret`.
    /// - Throws: ``SecretRefusal`` (``SecretRefusal/Reason/unsafeCharacters``) for an unsafe token.
    public static func check(_ token: String, as secret: ReleasedSecret, to recipient: SecretRecipient) throws(SecretRefusal) {
        if verdict(token) == .unsafe { throw SecretRefusal(secret: secret, recipient: recipient, reason: .unsafeCharacters) }
    }
}
