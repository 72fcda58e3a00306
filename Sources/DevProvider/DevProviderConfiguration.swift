import Foundation
import OpenIDConnect

/// What the development provider knows: its users and clients, how people sign in, token
/// lifetimes and the faults to inject. Built-in defaults, or a small JSON file:
///
/// ```json
/// {
///   "users": [{"username": "alice", "password": "wonderland", "subject": "248289761001",
///              "name": "Alice Liddell", "email": "alice@example.com"},
///             {"username": "dora", "password": "explorer", "subject": "248289761004", "name": "Dora",
///              "email": "dora@example.com", "totp_secret": "JBSWY3DPEHPK3PXP"},
///             {"username": "erin", "password": "keyholder", "subject": "248289761005", "name": "Erin",
///              "email": "erin@example.com", "passkey_required": true}],
///   "clients": [{"client_id": "webauth-demo", "redirect_uris": ["com.example.webauth:/callback"],
///                "require_consent": true}],
///   "login_method": "password",
///   "access_token_lifetime": 300,
///   "faults": ["slow"], "slow_response_seconds": 2
/// }
/// ```
/// Every key is optional; a missing one keeps its default.
public struct DevProviderConfiguration: Sendable, Hashable, Codable {
    /// A person who can sign in.
    public struct User: Sendable, Hashable, Codable {
        /// Login name.
        public var username: String
        /// Password.
        public var password: String
        /// The `sub` claim.
        public var subject: String
        /// The `name` claim.
        public var name: String
        /// The `email` claim; the address the email one-time code goes to.
        public var email: String
        /// A base32 TOTP secret (RFC 6238, SHA1, 6 digits, 30 s, as in an `otpauth://` URI): after
        /// the password, the person enters the code of their authenticator app. Default: none.
        public var totpSecret: String?
        /// Whether the password is followed by one of the user's passkeys (registered on the
        /// account page, `/account`) as the second factor. Default: no.
        public var passkeyRequired: Bool

        /// A user; with `totpSecret`, one whose password is followed by a TOTP code; with
        /// `passkeyRequired`, one whose password is followed by a passkey.
        public init(username: String, password: String, subject: String, name: String, email: String, totpSecret: String? = nil,
                    passkeyRequired: Bool = false) {
            (self.username, self.password, self.subject, self.name, self.email) = (username, password, subject, name, email)
            (self.totpSecret, self.passkeyRequired) = (totpSecret, passkeyRequired)
        }

        private enum CodingKeys: String, CodingKey {
            case username, password, subject, name, email, totpSecret = "totp_secret", passkeyRequired = "passkey_required"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(username: try container.decode(String.self, forKey: .username), password: try container.decode(String.self, forKey: .password),
                      subject: try container.decode(String.self, forKey: .subject), name: try container.decode(String.self, forKey: .name),
                      email: try container.decode(String.self, forKey: .email),
                      totpSecret: try container.decodeIfPresent(String.self, forKey: .totpSecret),
                      passkeyRequired: try container.decodeIfPresent(Bool.self, forKey: .passkeyRequired) ?? false)
        }

        /// The built-in demo user, alice / wonderland.
        public static let alice = User(username: "alice", password: "wonderland", subject: "248289761001",
                                       name: "Alice Liddell", email: "alice@example.com")
        /// A second built-in user, bob / builder.
        public static let bob = User(username: "bob", password: "builder", subject: "248289761002",
                                     name: "Bob Builder", email: "bob@example.com")
    }

    /// A registered client.
    public struct Client: Sendable, Hashable, Codable {
        /// `client_id`.
        public var clientID: String
        /// The secret of a confidential client (`client_secret_basic` or `client_secret_post`);
        /// `nil` for a public client, which authenticates with PKCE alone.
        public var clientSecret: String?
        /// Redirect URIs, matched exactly.
        public var redirectURIs: [String]
        /// Where the end-session endpoint may send the person back to; by default the redirect URIs.
        public var postLogoutRedirectURIs: [String]
        /// Whether the person is asked to allow the client's access after signing in.
        public var requiresConsent: Bool
        /// The public key (a JWK: EC P-256 or RSA) of a `private_key_jwt` client (RFC 7523): it
        /// must then authenticate with an assertion signed by the matching private key.
        public var jwk: JSONValue?
        /// The one way the client may authenticate at the token endpoint (RFC 7591 §2
        /// `token_endpoint_auth_method`: `client_secret_basic`, `client_secret_post`,
        /// `client_secret_jwt`, `private_key_jwt`, `none`); `nil`: its secret either way, or its key.
        public var tokenEndpointAuthMethod: String?

        /// A client.
        public init(clientID: String, clientSecret: String? = nil, redirectURIs: [String], postLogoutRedirectURIs: [String]? = nil,
                    requiresConsent: Bool = false, jwk: JSONValue? = nil, tokenEndpointAuthMethod: String? = nil) {
            self.clientID = clientID
            self.clientSecret = clientSecret
            self.redirectURIs = redirectURIs
            self.postLogoutRedirectURIs = postLogoutRedirectURIs ?? redirectURIs
            self.requiresConsent = requiresConsent
            self.jwk = jwk
            self.tokenEndpointAuthMethod = tokenEndpointAuthMethod
        }

        /// The built-in demo client: public, `com.example.webauth:/callback` and, for `--flow browser`,
        /// `http://127.0.0.1/callback` on any port (a native app's loopback redirect, RFC 8252 §7.3);
        /// no consent page.
        public static let demo = Client(clientID: "webauth-demo", redirectURIs: ["com.example.webauth:/callback", "http://127.0.0.1/callback"])

        enum CodingKeys: String, CodingKey {
            case clientID = "client_id", clientSecret = "client_secret", redirectURIs = "redirect_uris"
            case postLogoutRedirectURIs = "post_logout_redirect_uris", requiresConsent = "require_consent", jwk
            case tokenEndpointAuthMethod = "token_endpoint_auth_method"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(clientID: try container.decode(String.self, forKey: .clientID),
                      clientSecret: try container.decodeIfPresent(String.self, forKey: .clientSecret),
                      redirectURIs: try container.decode([String].self, forKey: .redirectURIs),
                      postLogoutRedirectURIs: try container.decodeIfPresent([String].self, forKey: .postLogoutRedirectURIs),
                      requiresConsent: try container.decodeIfPresent(Bool.self, forKey: .requiresConsent) ?? false,
                      jwk: try container.decodeIfPresent(JSONValue.self, forKey: .jwk),
                      tokenEndpointAuthMethod: try container.decodeIfPresent(String.self, forKey: .tokenEndpointAuthMethod))
        }
    }

    /// How a person proves who they are on the login page.
    public enum LoginMethod: String, Sendable, Hashable, Codable, CaseIterable {
        /// User name and password.
        case password
        /// An email address, then a one-time code sent to it (read it from ``OpenIDProvider/outbox``).
        case emailCode = "email_code"
    }

    /// The people who can sign in. Default: alice and bob.
    public var users: [User] = [.alice, .bob]
    /// The registered clients. Default: ``Client/demo``.
    public var clients: [Client] = [.demo]
    /// The login page shown first. A request can ask for the other with `login_method=...`. Default: password.
    public var loginMethod: LoginMethod = .password
    /// Access-token (and ID-token) lifetime in seconds. Default: 300.
    public var accessTokenLifetime: Int = 300
    /// Faults to inject from the start. Default: none.
    public var faults: Set<ProviderFault> = []
    /// How long ``ProviderFault/slow`` delays each response, in seconds. Default: 3.
    public var slowResponseSeconds: Double = 3
    /// Seconds a device-grant client must wait between polls (RFC 8628 `interval`). Default: 5.
    public var deviceCodeInterval: Int = 5
    /// Seconds a device code and its user code stay valid. Default: 600.
    public var deviceCodeLifetime: Int = 600
    /// Whether the authorization endpoint refuses requests that were not pushed (RFC 9126 §5). Default: no.
    public var requirePushedAuthorizationRequests = false
    /// Seconds a pushed authorization request's `request_uri` stays valid. Default: 60.
    public var pushedRequestLifetime: Int = 60
    /// What discovery lists as `token_endpoint_auth_methods_supported`. Default: all five.
    public var tokenEndpointAuthMethods = ["none", "client_secret_basic", "client_secret_post", "client_secret_jwt", "private_key_jwt"]

    /// The token `POST /register` (dynamic client registration, RFC 7591) needs as a bearer token
    /// (`401 invalid_token` without it); `nil` (the default): anyone may register.
    public var registrationInitialAccessToken: String?
    /// Seconds a dynamically registered client's secret lives (`client_secret_expires_at`); `nil`
    /// (the default): it does not expire. 0 or less: already expired when it is issued, for tests.
    public var registeredSecretLifetime: Int?

    /// Whether the provider remembers who signed in, as deployed providers do: a session cookie,
    /// with which a later sign-in in the same browser (the same cookies) needs no login page, and no
    /// consent page for a client allowed before, unless it asks `prompt=login` or `prompt=consent`;
    /// `/logout` ends it. Default: false (every sign-in shows the login page).
    public var remembersPeople = false

    /// The defaults.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case users, clients, faults
        case loginMethod = "login_method", accessTokenLifetime = "access_token_lifetime", slowResponseSeconds = "slow_response_seconds"
        case deviceCodeInterval = "device_code_interval", deviceCodeLifetime = "device_code_lifetime"
        case requirePushedAuthorizationRequests = "require_pushed_authorization_requests", pushedRequestLifetime = "pushed_request_lifetime"
        case tokenEndpointAuthMethods = "token_endpoint_auth_methods_supported"
        case registrationInitialAccessToken = "registration_initial_access_token", registeredSecretLifetime = "registered_secret_lifetime"
        case remembersPeople = "remembers_people"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = DevProviderConfiguration()
        users = try container.decodeIfPresent([User].self, forKey: .users) ?? defaults.users
        clients = try container.decodeIfPresent([Client].self, forKey: .clients) ?? defaults.clients
        loginMethod = try container.decodeIfPresent(LoginMethod.self, forKey: .loginMethod) ?? defaults.loginMethod
        accessTokenLifetime = try container.decodeIfPresent(Int.self, forKey: .accessTokenLifetime) ?? defaults.accessTokenLifetime
        faults = try container.decodeIfPresent(Set<ProviderFault>.self, forKey: .faults) ?? defaults.faults
        slowResponseSeconds = try container.decodeIfPresent(Double.self, forKey: .slowResponseSeconds) ?? defaults.slowResponseSeconds
        deviceCodeInterval = try container.decodeIfPresent(Int.self, forKey: .deviceCodeInterval) ?? defaults.deviceCodeInterval
        deviceCodeLifetime = try container.decodeIfPresent(Int.self, forKey: .deviceCodeLifetime) ?? defaults.deviceCodeLifetime
        requirePushedAuthorizationRequests = try container.decodeIfPresent(Bool.self, forKey: .requirePushedAuthorizationRequests)
            ?? defaults.requirePushedAuthorizationRequests
        pushedRequestLifetime = try container.decodeIfPresent(Int.self, forKey: .pushedRequestLifetime) ?? defaults.pushedRequestLifetime
        tokenEndpointAuthMethods = try container.decodeIfPresent([String].self, forKey: .tokenEndpointAuthMethods) ?? defaults.tokenEndpointAuthMethods
        registrationInitialAccessToken = try container.decodeIfPresent(String.self, forKey: .registrationInitialAccessToken)
        registeredSecretLifetime = try container.decodeIfPresent(Int.self, forKey: .registeredSecretLifetime)
        remembersPeople = try container.decodeIfPresent(Bool.self, forKey: .remembersPeople) ?? defaults.remembersPeople
    }

    /// Reads a configuration file.
    /// - Throws: ``DevProviderConfigurationError``.
    public static func load(from file: URL) throws(DevProviderConfigurationError) -> DevProviderConfiguration {
        let data: Data
        do { data = try Data(contentsOf: file) } catch { throw .unreadable(path: file.path, message: error.localizedDescription) }
        let configuration: DevProviderConfiguration
        do { configuration = try JSONDecoder().decode(DevProviderConfiguration.self, from: data) } catch {
            throw .malformed(path: file.path, message: (error as? DecodingError).map { DecodingProblem($0).description } ?? "not JSON")
        }
        try configuration.validate(path: file.path)
        return configuration
    }

    func validate(path: String) throws(DevProviderConfigurationError) {
        guard !clients.isEmpty else { throw .malformed(path: path, message: "no clients") }
        guard accessTokenLifetime > 0 else { throw .malformed(path: path, message: "access_token_lifetime must be positive") }
        guard deviceCodeInterval > 0, deviceCodeLifetime > 0 else {
            throw .malformed(path: path, message: "device_code_interval and device_code_lifetime must be positive")
        }
        if let client = clients.first(where: { $0.redirectURIs.isEmpty }) {
            throw .malformed(path: path, message: "client '\(client.clientID)' has no redirect_uris")
        }
    }
}

/// Why a development-provider configuration file could not be used.
public enum DevProviderConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, message: String)
    /// The file is not a valid configuration.
    case malformed(path: String, message: String)
    /// The signing-key file is not a PEM-encoded P-256 private key.
    case invalidSigningKey(path: String, message: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let message): "cannot read \(path): \(message)"
        case .malformed(let path, let message): "\(path) is not a valid provider configuration: \(message)"
        case .invalidSigningKey(let path, let message): "\(path) is not a PEM P-256 (ES256) private key: \(message)"
        }
    }
}
