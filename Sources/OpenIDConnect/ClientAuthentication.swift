import Foundation

/// How the client authenticates at the token, revocation and pushed-authorization endpoints
/// (RFC 6749 §2.3, RFC 7523 §2.2, OpenID Connect Core §9).
public enum ClientAuthentication: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A public client (a native app): only `client_id` is sent, PKCE proves possession.
    case none
    /// HTTP Basic with the client secret.
    case clientSecretBasic(secret: String)
    /// The client secret in the form body.
    case clientSecretPost(secret: String)
    /// `client_secret_jwt`: a JWT signed with HS256 keyed with the client secret, fresh for each
    /// request (RFC 7523 §2.2, Core §9); the secret itself never leaves. It must be 32 bytes or more.
    case clientSecretJWT(secret: String)
    /// The client secret, sent the way the provider asks (``resolved(for:)``): its discovery
    /// document's `token_endpoint_auth_methods_supported`.
    case clientSecret(secret: String)
    /// `private_key_jwt`: a JWT signed with the client's private key, fresh for each request
    /// (RFC 7523 §2.2). The key is read from where ``ClientKey`` says each time.
    case privateKeyJWT(ClientKey)

    /// The name, never the secret.
    public var description: String {
        switch self {
        case .none: "none"
        case .clientSecretBasic: "client_secret_basic"
        case .clientSecretPost: "client_secret_post"
        case .clientSecretJWT: "client_secret_jwt"
        case .clientSecret: "the client secret, as the provider asks"
        case .privateKeyJWT(let key): "private_key_jwt with \(key)"
        }
    }

    /// The key reference of a `private_key_jwt` client; `nil` for the others.
    public var privateKey: ClientKey? {
        if case .privateKeyJWT(let key) = self { key } else { nil }
    }

    /// The client secret, if the client has one: also the key of ID tokens signed with HMAC (Core §10.1).
    public var secret: String? {
        switch self {
        case .clientSecretBasic(let secret), .clientSecretPost(let secret), .clientSecretJWT(let secret), .clientSecret(let secret): secret
        case .none, .privateKeyJWT: nil
        }
    }

    /// The method a provider asks for: ``clientSecret(secret:)`` becomes `client_secret_basic` when
    /// `configuration`'s `token_endpoint_auth_methods_supported` lists it or is absent (its default,
    /// Discovery 1.0 §3), else `client_secret_post`, else `client_secret_jwt` when listed; every
    /// other case stays as it is.
    public func resolved(for configuration: ProviderConfiguration) -> ClientAuthentication {
        guard case .clientSecret(let secret) = self else { return self }
        guard let supported = configuration.tokenEndpointAuthMethodsSupported, !supported.contains("client_secret_basic") else {
            return .clientSecretBasic(secret: secret)
        }
        if supported.contains("client_secret_post") { return .clientSecretPost(secret: secret) }
        if supported.contains("client_secret_jwt") { return .clientSecretJWT(secret: secret) }
        return .clientSecretBasic(secret: secret)
    }

    /// Adds the client's credentials to a request to an endpoint; `audience` is the `aud` of a client assertion.
    /// ``clientSecret(secret:)`` goes as client_secret_basic: resolve it (``resolved(for:)``) first.
    /// - Throws: ``OpenIDConnectError/clientKey(_:)`` when a private key cannot sign,
    ///   ``OpenIDConnectError/clientSecretTooShort(alg:bytes:needed:)`` for a `client_secret_jwt` secret too short to key HS256.
    func apply(clientID: String, audience: String, to form: inout [(name: String, value: String)],
               headers: inout [String: String]) async throws(OpenIDConnectError) {
        switch self {
        case .none:
            form.append(("client_id", clientID))
        case .clientSecretPost(let secret):
            form += [("client_id", clientID), ("client_secret", secret)]
        case .clientSecretBasic(let secret), .clientSecret(let secret):
            // RFC 6749 §2.3.1: both parts are form-urlencoded before base64.
            let pair = FormURLEncoding.percentEncode(clientID) + ":" + FormURLEncoding.percentEncode(secret)
            headers["Authorization"] = "Basic " + Data(pair.utf8).base64EncodedString()
        case .clientSecretJWT(let secret):
            let assertion = try ClientAssertion.make(clientID: clientID, audience: audience, secret: secret)
            form += [("client_id", clientID), ("client_assertion_type", ClientAssertion.type), ("client_assertion", assertion)]
        case .privateKeyJWT(let key):
            let assertion: String
            do { assertion = try await ClientAssertion.make(clientID: clientID, audience: audience, key: key) } catch { throw .clientKey(error) }
            form += [("client_id", clientID), ("client_assertion_type", ClientAssertion.type), ("client_assertion", assertion)]
        }
    }
}
