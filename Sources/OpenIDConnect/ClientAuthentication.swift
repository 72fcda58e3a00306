import Foundation

/// How the client authenticates at the token, revocation and pushed-authorization endpoints
/// (RFC 6749 §2.3, RFC 7523 §2.2).
public enum ClientAuthentication: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A public client (a native app): only `client_id` is sent, PKCE proves possession.
    case none
    /// HTTP Basic with the client secret.
    case clientSecretBasic(secret: String)
    /// The client secret in the form body.
    case clientSecretPost(secret: String)
    /// `private_key_jwt`: a JWT signed with the client's private key, fresh for each request
    /// (RFC 7523 §2.2). The key is read from where ``ClientKey`` says each time.
    case privateKeyJWT(ClientKey)

    /// The name, never the secret.
    public var description: String {
        switch self {
        case .none: "none"
        case .clientSecretBasic: "client_secret_basic"
        case .clientSecretPost: "client_secret_post"
        case .privateKeyJWT(let key): "private_key_jwt with \(key)"
        }
    }

    /// The key reference of a `private_key_jwt` client; `nil` for the others.
    public var privateKey: ClientKey? {
        if case .privateKeyJWT(let key) = self { key } else { nil }
    }

    /// Adds the client's credentials to a request to an endpoint; `audience` is the `aud` of a client assertion.
    /// - Throws: ``OpenIDConnectError/clientKey(_:)`` when a private key cannot sign.
    func apply(clientID: String, audience: String, to form: inout [(name: String, value: String)],
               headers: inout [String: String]) async throws(OpenIDConnectError) {
        switch self {
        case .none:
            form.append(("client_id", clientID))
        case .clientSecretPost(let secret):
            form += [("client_id", clientID), ("client_secret", secret)]
        case .clientSecretBasic(let secret):
            // RFC 6749 §2.3.1: both parts are form-urlencoded before base64.
            let pair = FormURLEncoding.percentEncode(clientID) + ":" + FormURLEncoding.percentEncode(secret)
            headers["Authorization"] = "Basic " + Data(pair.utf8).base64EncodedString()
        case .privateKeyJWT(let key):
            let assertion: String
            do { assertion = try await ClientAssertion.make(clientID: clientID, audience: audience, key: key) } catch { throw .clientKey(error) }
            form += [("client_id", clientID), ("client_assertion_type", ClientAssertion.type), ("client_assertion", assertion)]
        }
    }
}
