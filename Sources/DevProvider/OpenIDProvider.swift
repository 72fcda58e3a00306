import Foundation
import JWTKit
import OpenIDConnect
import Synchronization

/// A small, spec-following OpenID Connect provider on 127.0.0.1, for demos and tests: discovery,
/// JWKS (an ES256 key made at start), a login form, authorization codes bound to PKCE (S256
/// required) and single use, a token endpoint with refresh-token rotation, userinfo and
/// revocation. Authorization responses carry `iss` (RFC 9207). ID tokens are signed with jwt-kit.
public final class OpenIDProvider: Sendable {
    /// A person who can sign in.
    public struct User: Sendable, Hashable {
        /// Login name.
        public let username: String
        /// Password.
        public let password: String
        /// The `sub` claim.
        public let subject: String
        /// The `name` claim.
        public let name: String
        /// The `email` claim.
        public let email: String

        /// A user.
        public init(username: String, password: String, subject: String, name: String, email: String) {
            (self.username, self.password, self.subject, self.name, self.email) = (username, password, subject, name, email)
        }

        /// The built-in demo user, alice / wonderland.
        public static let alice = User(username: "alice", password: "wonderland", subject: "248289761001",
                                       name: "Alice Liddell", email: "alice@example.com")
    }

    /// A registered client.
    public struct Client: Sendable, Hashable {
        /// `client_id`.
        public let clientID: String
        /// Redirect URIs, matched exactly.
        public let redirectURIs: [String]

        /// A public client (PKCE, no secret).
        public init(clientID: String, redirectURIs: [String]) {
            self.clientID = clientID
            self.redirectURIs = redirectURIs
        }

        /// The built-in demo client.
        public static let demo = Client(clientID: "webauth-demo", redirectURIs: ["com.example.webauth:/callback"])
    }

    private let server: LocalHTTPServer
    private let state: Mutex<State>
    private let keys: JWTKeyCollection
    private let publicJWK: JSONValue
    private let users: [User]
    private let clients: [Client]
    /// Access-token lifetime in seconds.
    public let accessTokenLifetime: Int

    private struct Grant: Sendable {
        let clientID: String
        let redirectURI: String
        let codeChallenge: String
        let nonce: String?
        let subject: String
        let scope: String
    }

    private struct State: Sendable {
        var codes: [String: Grant] = [:]
        var refreshTokens: [String: Grant] = [:]
        var accessTokens: [String: String] = [:]
        var requestCounts: [String: Int] = [:]
        var signedOutHints: [String] = []
    }

    /// The issuer: `http://127.0.0.1:PORT`.
    public var issuer: String { server.baseURL.absoluteString }

    /// Starts a provider on a free port of 127.0.0.1.
    public static func start(users: [User] = [.alice], clients: [Client] = [.demo],
                             accessTokenLifetime: Int = 300) async throws -> OpenIDProvider {
        let key = ES256PrivateKey()
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: key, kid: "dev-es256")
        let parameters = key.publicKey.parameters!
        let jwk: JSONValue = .object(["kty": .string("EC"), "crv": .string("P-256"), "kid": .string("dev-es256"), "use": .string("sig"),
                                      "alg": .string("ES256"), "x": .string(parameters.x), "y": .string(parameters.y)])
        let box = Mutex<OpenIDProvider?>(nil)
        let server = try await LocalHTTPServer.start { request in
            guard let provider = box.withLock({ $0 }) else { return LocalHTTPResponse(status: 503) }
            return await provider.respond(to: request)
        }
        let provider = OpenIDProvider(server: server, keys: keys, jwk: jwk, users: users, clients: clients,
                                      accessTokenLifetime: accessTokenLifetime)
        box.withLock { $0 = provider }
        return provider
    }

    private init(server: LocalHTTPServer, keys: JWTKeyCollection, jwk: JSONValue, users: [User], clients: [Client],
                 accessTokenLifetime: Int) {
        self.server = server
        self.keys = keys
        self.publicJWK = jwk
        self.users = users
        self.clients = clients
        self.accessTokenLifetime = accessTokenLifetime
        self.state = Mutex(State())
    }

    /// Stops the provider.
    public func stop() async { await server.stop() }

    /// How many requests reached `path` (for example `/token` with `grant_type=refresh_token`: see ``refreshCount``).
    public func requestCount(_ path: String) -> Int { state.withLock { $0.requestCounts[path] ?? 0 } }

    /// How many refresh-token grants the token endpoint has answered, successful or not.
    public var refreshCount: Int { requestCount("/token#refresh_token") }

    private func respond(to request: LocalHTTPRequest) async -> LocalHTTPResponse {
        state.withLock { $0.requestCounts[request.path, default: 0] += 1 }
        switch (request.method, request.path) {
        case ("GET", "/.well-known/openid-configuration"): return json(discoveryDocument)
        case ("GET", "/jwks"): return json(.object(["keys": .array([publicJWK])]))
        case (_, "/authorize"): return authorize(request)
        case ("POST", "/token"): return await token(request)
        case ("GET", "/userinfo"): return userinfo(request)
        case ("POST", "/revoke"): return revoke(request)
        case ("GET", "/logout"): return endSession(request)
        default: return LocalHTTPResponse(status: 404, body: "not found")
        }
    }

    private var discoveryDocument: JSONValue {
        let base = issuer
        return .object([
            "issuer": .string(base),
            "authorization_endpoint": .string(base + "/authorize"),
            "token_endpoint": .string(base + "/token"),
            "userinfo_endpoint": .string(base + "/userinfo"),
            "revocation_endpoint": .string(base + "/revoke"),
            "end_session_endpoint": .string(base + "/logout"),
            "jwks_uri": .string(base + "/jwks"),
            "response_types_supported": .array([.string("code")]),
            "response_modes_supported": .array([.string("query"), .string("form_post")]),
            "subject_types_supported": .array([.string("public")]),
            "id_token_signing_alg_values_supported": .array([.string("ES256")]),
            "code_challenge_methods_supported": .array([.string("S256")]),
            "token_endpoint_auth_methods_supported": .array([.string("none")]),
            "scopes_supported": .array(["openid", "profile", "email", "offline_access"].map { .string($0) }),
            "authorization_response_iss_parameter_supported": .bool(true),
        ])
    }

    // MARK: Authorization endpoint

    private func authorize(_ request: LocalHTTPRequest) -> LocalHTTPResponse {
        let query = Self.fields(request.query)
        // Never redirect to a URI that is not registered for the client: show the error instead.
        guard let client = clients.first(where: { $0.clientID == query["client_id"] }) else {
            return .html(LoginPage.message(title: "Unknown client", "This application is not registered."), status: 400)
        }
        guard let redirect = query["redirect_uri"], client.redirectURIs.contains(redirect) else {
            return .html(LoginPage.message(title: "Invalid redirect URI", "The redirect URI is not registered for this application."), status: 400)
        }
        let respond = { (pairs: [(name: String, value: String)]) -> LocalHTTPResponse in
            self.redirect(to: redirect, mode: query["response_mode"], pairs + [("state", query["state"] ?? ""), ("iss", self.issuer)])
        }
        guard query["response_type"] == "code" else { return respond([("error", "unsupported_response_type")]) }
        guard let challenge = query["code_challenge"], query["code_challenge_method"] == "S256" else {
            return respond([("error", "invalid_request"), ("error_description", "PKCE with S256 is required")])
        }
        let title = "Sign in to the development provider"
        guard request.method == "POST" else { return .html(LoginPage.form(title: title, error: nil, hint: nil)) }
        let form = Self.fields(request.body)
        guard let user = users.first(where: { $0.username == form["username"] && $0.password == form["password"] }) else {
            return .html(LoginPage.form(title: title, error: "Wrong user name or password.", hint: nil), status: 401)
        }
        let code = Self.randomToken()
        let grant = Grant(clientID: client.clientID, redirectURI: redirect, codeChallenge: challenge, nonce: query["nonce"],
                          subject: user.subject, scope: query["scope"] ?? "openid")
        state.withLock { $0.codes[code] = grant }
        return respond([("code", code)])
    }

    private func redirect(to uri: String, mode: String?, _ pairs: [(name: String, value: String)]) -> LocalHTTPResponse {
        if mode == "form_post" {
            let inputs = pairs.map { "<input type='hidden' name='\(LoginPage.escape($0.name))' value='\(LoginPage.escape($0.value))'>" }
            return .html("<!DOCTYPE html><html><body onload='document.forms[0].submit()'><form method='post' action='\(LoginPage.escape(uri))'>\(inputs.joined())</form></body></html>")
        }
        return .redirect(to: uri + (uri.contains("?") ? "&" : "?") + FormURLEncoding.encode(pairs))
    }

    // MARK: Token endpoint

    private func token(_ request: LocalHTTPRequest) async -> LocalHTTPResponse {
        let form = Self.fields(request.body)
        let grantType = form["grant_type"] ?? ""
        state.withLock { $0.requestCounts["/token#" + grantType, default: 0] += 1 }
        let grant: Grant?
        switch grantType {
        case "authorization_code":
            grant = state.withLock { $0.codes.removeValue(forKey: form["code"] ?? "") }  // single use
            guard let grant, grant.clientID == form["client_id"], grant.redirectURI == form["redirect_uri"],
                  let verifier = form["code_verifier"], PKCE.challenge(for: verifier) == grant.codeChallenge else {
                return oauthError("invalid_grant", "the code is unknown, used, or not bound to this client, redirect URI and verifier")
            }
        case "refresh_token":
            grant = state.withLock { $0.refreshTokens.removeValue(forKey: form["refresh_token"] ?? "") }  // rotation
            guard let grant, grant.clientID == form["client_id"] else {
                return oauthError("invalid_grant", "the refresh token is unknown, used or revoked")
            }
        default:
            return oauthError("unsupported_grant_type", nil)
        }
        guard let grant else { return oauthError("invalid_grant", nil) }
        return await issueTokens(for: grant, includeNonce: grantType == "authorization_code")
    }

    private func issueTokens(for grant: Grant, includeNonce: Bool) async -> LocalHTTPResponse {
        let accessToken = Self.randomToken()
        let refreshToken = grant.scope.split(separator: " ").contains("offline_access") ? Self.randomToken() : nil
        state.withLock { state in
            state.accessTokens[accessToken] = grant.subject
            if let refreshToken { state.refreshTokens[refreshToken] = grant }
        }
        let now = Date().timeIntervalSince1970.rounded(.down)
        var claims: [String: JSONValue] = [
            "iss": .string(issuer), "sub": .string(grant.subject), "aud": .string(grant.clientID),
            "iat": .number(now), "exp": .number(now + Double(accessTokenLifetime)), "auth_time": .number(now),
        ]
        if includeNonce, let nonce = grant.nonce { claims["nonce"] = .string(nonce) }
        guard let idToken = try? await keys.sign(JWTClaimSet(claims: claims), kid: "dev-es256") else {
            return LocalHTTPResponse(status: 500, body: "signing failed")
        }
        var body: [String: JSONValue] = [
            "access_token": .string(accessToken), "token_type": .string("Bearer"),
            "expires_in": .number(Double(accessTokenLifetime)), "id_token": .string(idToken), "scope": .string(grant.scope),
        ]
        if let refreshToken { body["refresh_token"] = .string(refreshToken) }
        return json(.object(body), headers: ["Cache-Control": "no-store"])
    }

    // MARK: Userinfo and revocation

    private func userinfo(_ request: LocalHTTPRequest) -> LocalHTTPResponse {
        let token = request.header("Authorization").flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        guard let token, let subject = state.withLock({ $0.accessTokens[token] }),
              let user = users.first(where: { $0.subject == subject }) else {
            return LocalHTTPResponse(status: 401, headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#])
        }
        return json(.object(["sub": .string(user.subject), "name": .string(user.name), "email": .string(user.email),
                             "preferred_username": .string(user.username)]))
    }

    private func revoke(_ request: LocalHTTPRequest) -> LocalHTTPResponse {
        let token = Self.fields(request.body)["token"] ?? ""
        state.withLock { state in
            state.refreshTokens[token] = nil
            state.accessTokens[token] = nil
        }
        return LocalHTTPResponse(status: 200)
    }

    /// RP-initiated logout: forgets the person's tokens and returns to a registered redirect URI
    /// (the client's redirect URIs double as post-logout redirect URIs here).
    private func endSession(_ request: LocalHTTPRequest) -> LocalHTTPResponse {
        let query = Self.fields(request.query)
        guard let client = clients.first(where: { $0.clientID == query["client_id"] }),
              let target = query["post_logout_redirect_uri"], client.redirectURIs.contains(target) else {
            return .html(LoginPage.message(title: "Signed out", "You are signed out."), status: 400)
        }
        state.withLock { $0.signedOutHints.append(query["id_token_hint"] ?? "") }
        return redirect(to: target, mode: nil, [("state", query["state"] ?? "")])
    }

    /// The `id_token_hint`s of the logouts received so far.
    public var logoutHints: [String] { state.withLock { $0.signedOutHints } }

    // MARK: Helpers

    private func json(_ value: JSONValue, status: Int = 200, headers: [String: String] = [:]) -> LocalHTTPResponse {
        LocalHTTPResponse(status: status, headers: headers.merging(["Content-Type": "application/json"]) { $1 }, body: value.description)
    }

    private func oauthError(_ code: String, _ description: String?) -> LocalHTTPResponse {
        var body: [String: JSONValue] = ["error": .string(code)]
        if let description { body["error_description"] = .string(description) }
        return json(.object(body), status: 400)
    }

    private static func fields(_ encoded: String) -> [String: String] {
        Dictionary((try? FormURLEncoding.decode(encoded)) ?? [], uniquingKeysWith: { first, _ in first })
    }

    private static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
