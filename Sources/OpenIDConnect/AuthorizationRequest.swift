import Foundation

/// An authorization request (RFC 6749 §4.1.1, OpenID Connect Core §3.1.2.1): an immutable value
/// whose convenience initialiser makes fresh `state`, `nonce` and PKCE.
public struct AuthorizationRequest: Sendable, Hashable, Codable {
    /// The response types this client supports.
    public enum ResponseType: String, Sendable, Hashable, Codable, CaseIterable {
        /// Authorization code (the default, with PKCE).
        case code
        /// Implicit: an access token in the fragment (discouraged by RFC 9700; for old providers).
        case token
        /// Implicit: an ID token only.
        case idToken = "id_token"
        /// Implicit: ID token and access token.
        case idTokenToken = "id_token token"
        /// Hybrid: a code, and an ID token in the front channel.
        case codeIDToken = "code id_token"

        /// Whether the response carries a code (PKCE is then always used).
        public var includesCode: Bool { self == .code || self == .codeIDToken }
        /// Whether the response carries an ID token.
        public var includesIDToken: Bool { self != .code && self != .token }
        /// Whether the response carries an access token.
        public var includesAccessToken: Bool { self == .token || self == .idTokenToken }
        /// Where the response comes back when no response mode is asked for.
        public var defaultResponseMode: ResponseMode { self == .code ? .query : .fragment }
    }

    /// How the response is returned (OAuth 2.0 Multiple Response Types, Form Post Response Mode).
    public enum ResponseMode: String, Sendable, Hashable, Codable {
        /// In the redirect URI's query.
        case query
        /// In the redirect URI's fragment.
        case fragment
        /// As an auto-submitted form POST to the redirect URI.
        case formPost = "form_post"
    }

    /// The client identifier.
    public let clientID: String
    /// The redirect URI.
    public let redirectURI: RedirectURI
    /// The response type.
    public let responseType: ResponseType
    /// The response mode sent, or `nil` for the response type's default.
    public let responseMode: ResponseMode?
    /// The scopes; `openid` is always among them.
    public let scopes: [String]
    /// The `state` (at least 32 random bytes), checked in the response.
    public let state: String
    /// The `nonce` (at least 32 random bytes), checked in the ID token.
    public let nonce: String
    /// PKCE, present whenever the response type includes a code.
    public let pkce: PKCE?
    /// Everything else (`acr_values`, `prompt`, `login_hint`, `ui_locales`, `max_age`, ...), sent as given.
    public let additionalParameters: [String: String]
    /// When the request was made: with `prompt=login`, the login must not be older.
    public let createdAt: Date

    /// A request with fresh `state`, `nonce` and PKCE. `openid` is added to the scopes if missing.
    public init(clientID: String, redirectURI: RedirectURI, responseType: ResponseType = .code,
                responseMode: ResponseMode? = nil, scopes: [String] = ["openid"],
                additionalParameters: [String: String] = [:]) {
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.responseType = responseType
        self.responseMode = responseMode
        self.scopes = scopes.contains("openid") ? scopes : ["openid"] + scopes
        self.state = Base64URL.random(bytes: 32)
        self.nonce = Base64URL.random(bytes: 32)
        self.pkce = responseType.includesCode ? PKCE() : nil
        self.additionalParameters = additionalParameters
        self.createdAt = Date()
    }

    /// What the ID token's `auth_time` must show: `nil` unless the request has `max_age` or
    /// `prompt=login`. A `max_age` that is not a number of seconds counts as 0, the strictest.
    public var authTimeRequirement: AuthTimeRequirement? {
        let maxAge = additionalParameters["max_age"].map { Duration.seconds(max(0, Int($0) ?? 0)) }
        let freshLogin = additionalParameters["prompt"]?.split(separator: " ").contains("login") == true
        guard maxAge != nil || freshLogin else { return nil }
        return AuthTimeRequirement(maxAge: maxAge, notBefore: freshLogin ? createdAt : nil)
    }

    /// Parameters the client sets itself, which `additionalParameters` cannot override.
    static let reservedParameters: Set<String> = [
        "client_id", "redirect_uri", "response_type", "response_mode", "scope", "state", "nonce",
        "code_challenge", "code_challenge_method",
    ]

    /// The URL that starts the sign-in: `endpoint` with the request's parameters added to any it has.
    public func url(authorizationEndpoint endpoint: URL) -> URL {
        FormURLEncoding.appending(parameters, to: endpoint)
    }

    /// The request's parameters, in the order they are sent: in the authorization URL, or in the
    /// body of a pushed authorization request (RFC 9126).
    public var parameters: [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = [
            ("response_type", responseType.rawValue), ("client_id", clientID), ("redirect_uri", redirectURI.string),
            ("scope", scopes.joined(separator: " ")), ("state", state), ("nonce", nonce),
        ]
        if let responseMode { pairs.append(("response_mode", responseMode.rawValue)) }
        if let pkce { pairs += [("code_challenge", pkce.challenge), ("code_challenge_method", pkce.method)] }
        pairs += additionalParameters.sorted { $0.key < $1.key }
            .filter { !Self.reservedParameters.contains($0.key) }
            .map { ($0.key, $0.value) }
        return pairs
    }

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id", redirectURI = "redirect_uri", responseType = "response_type"
        case responseMode = "response_mode", scopes = "scopes", state, nonce, pkce
        case additionalParameters = "additional_parameters", createdAt = "created_at"
    }
}
