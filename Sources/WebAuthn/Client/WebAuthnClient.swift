import Foundation
import OpenIDConnect
import SecretGate

/// The browser's part of WebAuthn (§5.1.3 create, §5.1.4 get) without the browser: it takes the
/// page's options and the origin the engine saw, checks the relying party ID, writes the
/// clientDataJSON, asks `SecretGate` whether the authenticator may answer this page at all,
/// asks the authenticator, and returns the credential as the page's `PublicKeyCredential`
/// (`toJSON()`'s shape, buffers in base64url). A failure is the `DOMException` the page sees.
public struct WebAuthnClient: Sendable {
    /// The origin of the document that asked, from the engine (the committed top-level document).
    public let origin: WebAuthnOrigin
    /// What answers, if anything.
    public let authenticator: (any PasskeyAuthenticator)?
    /// Who may receive a passkey's answer.
    public let gate: SecretGate
    /// The Public Suffix List's verdict on a domain (see ``RelyingPartyID/validate(_:for:isPublicSuffix:)``).
    public let isPublicSuffix: @Sendable (String) -> Bool

    /// A client for requests from `origin`, answered by `authenticator` as `gate` allows.
    public init(origin: WebAuthnOrigin, authenticator: (any PasskeyAuthenticator)?, gate: SecretGate,
                isPublicSuffix: @escaping @Sendable (String) -> Bool = RelyingPartyID.singleLabelIsPublicSuffix) {
        (self.origin, self.authenticator, self.gate, self.isPublicSuffix) = (origin, authenticator, gate, isPublicSuffix)
    }

    /// The shortest and longest time a request may take, whatever its `timeout` says (§5.4.6
    /// leaves the range to the client), and the time for one that gives none.
    public static let timeoutRange = Duration.seconds(1)...Duration.seconds(600)
    /// The time a request that gives no `timeout` may take.
    public static let defaultTimeout = Duration.seconds(300)

    /// How long a request whose options say `milliseconds` may take.
    public static func timeout(milliseconds: Int?) -> Duration {
        guard let milliseconds else { return defaultTimeout }
        return min(max(.milliseconds(milliseconds), timeoutRange.lowerBound), timeoutRange.upperBound)
    }

    /// `navigator.credentials.create({publicKey: options})`.
    /// - Throws: ``WebAuthnClientError``.
    public func create(_ options: CredentialCreationOptions) async throws(WebAuthnClientError) -> JSONValue {
        let relyingParty = try validated(options.relyingPartyID)
        if options.listedAlgorithms, options.algorithms.isEmpty {
            throw .page(WebAuthnDOMError(.notSupported, "no algorithm of pubKeyCredParams is supported (ES256, EdDSA)"))
        }
        let authenticator = try released(for: relyingParty)
        let clientData = CollectedClientData(type: .create, challenge: options.challenge, origin: origin.description)
        let request = MakeCredentialRequest(
            clientDataHash: clientData.hash, relyingPartyID: relyingParty, relyingPartyName: options.relyingPartyName,
            userID: options.userID, userName: options.userName, userDisplayName: options.userDisplayName,
            algorithms: options.listedAlgorithms ? options.algorithms : [.es256], excludeCredentials: options.excludeCredentials,
            residentKey: options.residentKey, userVerification: options.userVerification)
        let made: MadeCredential
        do { made = try await authenticator.makeCredential(request) } catch { throw .authenticator(error) }
        guard let credential = made.authenticatorData.attestedCredential else {
            throw .authenticator(.unavailable("the authenticator returned no credential"))
        }
        var extensions: [String: JSONValue] = [:]
        if options.credentialProperties, let discoverable = made.isDiscoverable { extensions["credProps"] = .object(["rk": .bool(discoverable)]) }
        return Self.credential(credential.credentialID, by: authenticator, extensions: extensions, response: [
            "clientDataJSON": .string(Base64URL.encode(clientData.json)),
            "attestationObject": .string(Base64URL.encode(made.attestationObject)),
            "authenticatorData": .string(Base64URL.encode(made.authenticatorData.encoded)),
            "publicKey": .string(Base64URL.encode(credential.publicKey.subjectPublicKeyInfo)),
            "publicKeyAlgorithm": .number(Double(credential.publicKey.algorithm.rawValue)),
            "transports": .array([.string(authenticator.kind == .virtual ? "internal" : "usb")]),
        ])
    }

    /// `navigator.credentials.get({publicKey: options})`.
    /// - Throws: ``WebAuthnClientError``.
    public func get(_ options: CredentialRequestOptions) async throws(WebAuthnClientError) -> JSONValue {
        let relyingParty = try validated(options.relyingPartyID)
        let authenticator = try released(for: relyingParty)
        let clientData = CollectedClientData(type: .get, challenge: options.challenge, origin: origin.description)
        let request = GetAssertionRequest(relyingPartyID: relyingParty, clientDataHash: clientData.hash,
                                          allowCredentials: options.allowCredentials, userVerification: options.userVerification)
        let assertion: Assertion
        do { assertion = try await authenticator.getAssertion(request) } catch { throw .authenticator(error) }
        return Self.credential(assertion.credentialID, by: authenticator, extensions: [:], response: [
            "clientDataJSON": .string(Base64URL.encode(clientData.json)),
            "authenticatorData": .string(Base64URL.encode(assertion.authenticatorData)),
            "signature": .string(Base64URL.encode(assertion.signature)),
            "userHandle": assertion.userHandle.map { .string(Base64URL.encode($0)) } ?? .null,
        ])
    }

    private func validated(_ requested: String?) throws(WebAuthnClientError) -> String {
        do { return try RelyingPartyID.validate(requested, for: origin, isPublicSuffix: isPublicSuffix) } catch { throw .page(error) }
    }

    /// The authenticator, once the gate lets it answer this page for `relyingParty`.
    private func released(for relyingParty: String) throws(WebAuthnClientError) -> any PasskeyAuthenticator {
        guard let authenticator else { throw .noAuthenticator }
        do {
            try gate.check(.passkeySignature(relyingParty: relyingParty, authenticator: authenticator.kind),
                           to: .site(scheme: origin.scheme, host: origin.host, port: origin.port))
        } catch {
            throw .refused(error)
        }
        return authenticator
    }

    /// A `PublicKeyCredential` as `toJSON()` gives it: the credential `id`, the authenticator's
    /// attachment, `response` and the extensions' results.
    private static func credential(_ id: Data, by authenticator: any PasskeyAuthenticator, extensions: [String: JSONValue],
                                   response: [String: JSONValue]) -> JSONValue {
        let id = Base64URL.encode(id)
        return .object([
            "id": .string(id), "rawId": .string(id), "type": .string("public-key"),
            "authenticatorAttachment": .string(authenticator.kind == .virtual ? "platform" : "cross-platform"),
            "response": .object(response), "clientExtensionResults": .object(extensions),
        ])
    }
}

/// Why a WebAuthn request failed: what the page sees (``domError``) and, for the engine's log
/// and its report, why.
public enum WebAuthnClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The page's options or origin: a `TypeError`, `SecurityError` or `NotSupportedError`.
    case page(WebAuthnDOMError)
    /// No authenticator is configured (a headless session without a login script's `passkey`,
    /// a popup without security keys).
    case noAuthenticator
    /// `SecretGate` refused: the authenticator may not answer this page.
    case refused(SecretRefusal)
    /// The authenticator did not answer.
    case authenticator(AuthenticatorError)

    /// The page's error.
    public var domError: WebAuthnDOMError {
        switch self {
        case .page(let error): error
        case .authenticator(let error): error.domError
        case .noAuthenticator, .refused: WebAuthnDOMError(.notAllowed, "The operation either timed out or was not allowed.")
        }
    }

    public var description: String {
        switch self {
        case .page(let error): "\(error)"
        case .noAuthenticator: "no passkey authenticator is configured"
        case .refused(let refusal): "\(refusal)"
        case .authenticator(let error): "\(error)"
        }
    }
}
