import Foundation
import WebAuthSupport

/// Why WebFinger issuer discovery (OpenID Connect Discovery 1.0 §2) found no issuer.
public enum WebFingerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was given is not an identifier WebFinger can ask about: give an e-mail address
    /// (`alice@example.com`), an `acct:` URI or an https URL.
    case notAnIdentifier(String)
    /// The request would go over plain http to a host that is not loopback (RFC 7033 §4: https only).
    case insecure(url: String)
    /// The host answered, but names no issuer for the resource: give the issuer instead.
    case noIssuerLink(resource: String, host: String)

    public var description: String {
        switch self {
        case .notAnIdentifier(let text):
            "'\(TerminalText.strippingControls(text))' is not a user WebFinger can look up: give an e-mail address (alice@example.com), an acct: URI or an https URL"
        case .insecure(let url): "WebFinger over plain http is refused for a host that is not this machine: \(url)"
        case .noIssuerLink(let resource, let host):
            "\(host) names no OpenID Connect issuer for \(TerminalText.strippingControls(resource)) (WebFinger rel http://openid.net/specs/connect/1.0/issuer): give --issuer"
        }
    }
}
