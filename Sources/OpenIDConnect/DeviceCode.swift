import Foundation
import WebAuthSupport

/// A device authorization response (RFC 8628 §3.2): the code the person enters at the
/// verification URI, and the device code the client polls with. Both are credentials while the
/// grant runs: `description` shows neither. The user code and the verification URIs never hold a
/// control character (C0, DEL, C1, escape sequences): they are removed as the response is read,
/// so the codes can be shown on a terminal as they are.
public struct DeviceCode: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The code the client polls the token endpoint with. Never show or log it.
    public let deviceCode: String
    /// The code the person enters at ``verificationURI`` (such as `WDJB-MJHT`). Show it to the
    /// person only, never in a log.
    public let userCode: String
    /// Where the person goes (on a phone or another computer) to enter ``userCode``.
    public let verificationURI: URL
    /// ``verificationURI`` with the user code in it, for a QR code or a link, if the provider gives one.
    public let verificationURIComplete: URL?
    /// Seconds from ``issuedAt`` until both codes expire.
    public let expiresIn: Int
    /// Seconds to wait between polls, as the provider asked (default 5, RFC 8628 §3.2).
    public let interval: Int
    /// When the response arrived (set by the client).
    public var issuedAt: Date

    /// When the codes expire.
    public var expiresAt: Date { issuedAt.addingTimeInterval(Double(expiresIn)) }

    /// The URI to show as a QR code: the complete one if there is one, else ``verificationURI``.
    public var uriForQRCode: URL { verificationURIComplete ?? verificationURI }

    /// A response, as a provider would send it.
    public init(deviceCode: String, userCode: String, verificationURI: URL, verificationURIComplete: URL? = nil,
                expiresIn: Int, interval: Int = 5, issuedAt: Date = Date()) {
        self.deviceCode = deviceCode
        self.userCode = TerminalText.strippingControls(userCode)
        self.verificationURI = verificationURI
        self.verificationURIComplete = verificationURIComplete
        self.expiresIn = expiresIn
        self.interval = interval
        self.issuedAt = issuedAt
    }

    /// The verification URI and the lifetime; the codes as their lengths.
    public var description: String {
        "DeviceCode(verification_uri: \(verificationURI.absoluteString), user_code: <\(userCode.count) chars>, "
            + "device_code: <\(deviceCode.count) chars>, expires_in: \(expiresIn), interval: \(interval))"
    }

    enum CodingKeys: String, CodingKey {
        case deviceCode = "device_code", userCode = "user_code", verificationURI = "verification_uri"
        case verificationURIComplete = "verification_uri_complete", expiresIn = "expires_in", interval
        case issuedAt = "issued_at"
        /// Google's spelling of `verification_uri`.
        case verificationURL = "verification_url"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        deviceCode = try container.decode(String.self, forKey: .deviceCode)
        userCode = TerminalText.strippingControls(try container.decode(String.self, forKey: .userCode))
        // The URIs as text first, so that an escape sequence goes whole rather than percent-encoded.
        let uri = { (key: CodingKeys) throws -> URL? in
            guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
            guard let url = URL(string: TerminalText.strippingControls(text)) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not a URI")
            }
            return url
        }
        guard let verificationURI = try uri(.verificationURI) ?? uri(.verificationURL) else {
            throw DecodingError.keyNotFound(CodingKeys.verificationURI, .init(codingPath: decoder.codingPath,
                                                                              debugDescription: "verification_uri is required"))
        }
        self.verificationURI = verificationURI
        verificationURIComplete = try uri(.verificationURIComplete)
        // Some providers send the numbers as strings.
        let number = { (key: CodingKeys) -> Int? in
            (try? container.decodeIfPresent(Int.self, forKey: key)) ?? (try? container.decodeIfPresent(String.self, forKey: key)).flatMap { $0.flatMap { Int($0) } }
        }
        guard let expiresIn = number(.expiresIn) else {
            throw DecodingError.keyNotFound(CodingKeys.expiresIn, .init(codingPath: decoder.codingPath, debugDescription: "expires_in is required"))
        }
        self.expiresIn = expiresIn
        interval = max(number(.interval) ?? 5, 1)
        issuedAt = try container.decodeIfPresent(Date.self, forKey: .issuedAt) ?? Date()
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(deviceCode, forKey: .deviceCode)
        try container.encode(userCode, forKey: .userCode)
        try container.encode(verificationURI, forKey: .verificationURI)
        try container.encodeIfPresent(verificationURIComplete, forKey: .verificationURIComplete)
        try container.encode(expiresIn, forKey: .expiresIn)
        try container.encode(interval, forKey: .interval)
        try container.encode(issuedAt, forKey: .issuedAt)
    }
}
