import Foundation

/// How the client authenticates at the token and revocation endpoints (RFC 6749 §2.3).
public enum ClientAuthentication: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A public client (a native app): only `client_id` is sent, PKCE proves possession.
    case none
    /// HTTP Basic with the client secret.
    case clientSecretBasic(secret: String)
    /// The client secret in the form body.
    case clientSecretPost(secret: String)

    /// The name, never the secret.
    public var description: String {
        switch self {
        case .none: "none"
        case .clientSecretBasic: "client_secret_basic"
        case .clientSecretPost: "client_secret_post"
        }
    }

    /// Adds the client's credentials to a token-endpoint request.
    func apply(clientID: String, to form: inout [(name: String, value: String)], headers: inout [String: String]) {
        switch self {
        case .none:
            form.append(("client_id", clientID))
        case .clientSecretPost(let secret):
            form += [("client_id", clientID), ("client_secret", secret)]
        case .clientSecretBasic(let secret):
            // RFC 6749 §2.3.1: both parts are form-urlencoded before base64.
            let pair = FormURLEncoding.percentEncode(clientID) + ":" + FormURLEncoding.percentEncode(secret)
            headers["Authorization"] = "Basic " + Data(pair.utf8).base64EncodedString()
        }
    }
}
