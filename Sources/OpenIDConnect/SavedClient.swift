import Foundation

/// What a later run needs, besides the provider and the client ID, to act for the client that
/// signed in (refresh, ask for userinfo, sign out): the redirect URI, the scopes asked for, how the
/// client authenticates at the token endpoint, where its secret or private key is kept, and how its
/// ID tokens are signed. A reference to the secret or key, never the secret or key itself.
public struct SavedClient: Sendable, Hashable, Codable {
    /// How the client authenticates at the token endpoint (the names of RFC 7591 §2).
    public enum AuthenticationMethod: String, Sendable, Hashable, Codable, CaseIterable {
        /// A public client: no secret.
        case none
        /// The secret in HTTP Basic.
        case clientSecretBasic = "client_secret_basic"
        /// The secret in the form body.
        case clientSecretPost = "client_secret_post"
        /// A JWT signed with HS256 keyed with the secret (RFC 7523, OpenID Connect Core §9).
        case clientSecretJWT = "client_secret_jwt"
        /// A JWT signed with the client's private key (RFC 7523): the key is in ``SavedClient/privateKey``.
        case privateKeyJWT = "private_key_jwt"

        /// The method `authentication` uses (``ClientAuthentication/clientSecret(secret:)``, not yet
        /// resolved for a provider, counts as client_secret_basic: resolve it first).
        public init(_ authentication: ClientAuthentication) {
            switch authentication {
            case .none: self = .none
            case .clientSecretBasic, .clientSecret: self = .clientSecretBasic
            case .clientSecretPost: self = .clientSecretPost
            case .clientSecretJWT: self = .clientSecretJWT
            case .privateKeyJWT: self = .privateKeyJWT
            }
        }

        /// This method with `secret` (ignored by ``none``; ``privateKeyJWT`` has no secret and
        /// gives ``ClientAuthentication/none``: its key comes from ``SavedClient/privateKey``).
        public func authentication(secret: String) -> ClientAuthentication {
            switch self {
            case .none: .none
            case .clientSecretBasic: .clientSecretBasic(secret: secret)
            case .clientSecretPost: .clientSecretPost(secret: secret)
            case .clientSecretJWT: .clientSecretJWT(secret: secret)
            case .privateKeyJWT: .none
            }
        }
    }

    /// Where a confidential client's secret is found when it is needed again.
    public enum SecretReference: Sendable, Hashable, Codable, CustomStringConvertible {
        /// An environment variable, by name.
        case environment(String)
        /// A file, by absolute path; its content without surrounding white space.
        case file(String)

        public var description: String {
            switch self {
            case .environment(let name): "$\(name)"
            case .file(let path): "the file \(path)"
            }
        }

        private enum CodingKeys: String, CodingKey { case environment, file }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let name = try container.decodeIfPresent(String.self, forKey: .environment) {
                self = .environment(name)
            } else {
                self = .file(try container.decode(String.self, forKey: .file))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .environment(let name): try container.encode(name, forKey: .environment)
            case .file(let path): try container.encode(path, forKey: .file)
            }
        }
    }

    /// The redirect URI as registered (also the post-logout redirect URI by default).
    public var redirectURI: String
    /// The scopes the sign-in asked for.
    public var scopes: [String]
    /// How the client authenticates at the token endpoint.
    public var authenticationMethod: AuthenticationMethod
    /// Where the client secret is found, if the client has one that can be found again.
    public var clientSecret: SecretReference?
    /// Where a `private_key_jwt` client's private key is (its path, never its bytes).
    public var privateKey: ClientKey?
    /// The client's `id_token_signed_response_alg`, if it named one: refreshed ID tokens are held to it too.
    public var idTokenSigning: IDTokenSigning?
    /// How the sign-in reached the provider (proxy, CA file, client certificate), for the
    /// requests of later runs; `nil` in a sign-in saved before routes were kept.
    public var route: SavedRoute?

    /// A record of a client.
    public init(redirectURI: String, scopes: [String], authenticationMethod: AuthenticationMethod, clientSecret: SecretReference? = nil,
                privateKey: ClientKey? = nil, idTokenSigning: IDTokenSigning? = nil) {
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.authenticationMethod = authenticationMethod
        self.clientSecret = clientSecret
        self.privateKey = privateKey
        self.idTokenSigning = idTokenSigning
    }

    enum CodingKeys: String, CodingKey {
        case redirectURI = "redirect_uri", scopes, authenticationMethod = "token_endpoint_auth_method"
        case clientSecret = "client_secret_reference", privateKey = "private_key"
        case idTokenSigning = "id_token_signed_response_alg"
        case route
    }
}
