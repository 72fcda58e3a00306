import Crypto

/// Proof Key for Code Exchange (RFC 7636) with the S256 method, the only one this client uses.
public struct PKCE: Sendable, Hashable, Codable {
    /// The secret kept by the client and sent with the token request (43 to 128 characters).
    public let verifier: String
    /// `BASE64URL(SHA256(verifier))`, sent with the authorization request.
    public var challenge: String { Self.challenge(for: verifier) }
    /// Always `S256`.
    public var method: String { "S256" }

    /// A fresh verifier: 32 bytes from the system's secure random generator (43 characters).
    public init() {
        verifier = Base64URL.random(bytes: 32)
    }

    /// A given verifier, checked against RFC 7636 §4.1 (43 to 128 unreserved characters).
    /// - Throws: ``PKCEError/invalidVerifier``.
    public init(verifier: String) throws(PKCEError) {
        let allowed = verifier.utf8.allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "-._~".utf8.contains(byte)
        }
        guard (43...128).contains(verifier.utf8.count), allowed else { throw .invalidVerifier }
        self.verifier = verifier
    }

    /// The S256 challenge of `verifier`.
    public static func challenge(for verifier: String) -> String {
        Base64URL.encode(SHA256.hash(data: Array(verifier.utf8)))
    }
}

/// A PKCE verifier that RFC 7636 does not allow.
public enum PKCEError: Error, Sendable, Hashable {
    /// Not 43 to 128 characters of `A-Z a-z 0-9 - . _ ~`.
    case invalidVerifier
}
