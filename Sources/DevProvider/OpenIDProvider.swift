import Foundation
package import JWTKit
import OpenIDConnect
import Synchronization
import WebAuthSupport

/// A small, spec-following OpenID Connect provider on 127.0.0.1, for demos and tests.
///
/// Discovery, JWKS (an ES256 key made at start or loaded from a PEM file), an authorization
/// endpoint with real pages (password login, email one-time-code login with an inspectable
/// ``outbox``, consent), the device authorization grant with its verification page (RFC 8628),
/// single-use authorization codes bound to PKCE S256, a token endpoint with
/// refresh-token rotation for public and confidential clients (a refresh may narrow the scope
/// and name resources, RFC 8707), userinfo, introspection (RFC 7662), revocation and
/// end-session, passkeys (an account page; sign-in with one). Responses carry `iss` (RFC 9207). ID tokens are signed with
/// jwt-kit. ``faults`` inject failures for tests. It also answers plain curl: see the README.
public final class OpenIDProvider: Sendable {
    /// A person who can sign in.
    public typealias User = DevProviderConfiguration.User
    /// A registered client.
    public typealias Client = DevProviderConfiguration.Client

    static let keyID = "dev-es256"

    let server: LocalHTTPServer
    /// What changes while the provider runs. Not a `Mutex`: see ``LockedState``.
    let state: LockedState<State>
    let keys: JWTKeyCollection
    /// A key the JWKS does not publish, for ``ProviderFault/badIDTokenSignature``.
    let rogueKeys: JWTKeyCollection
    let publicJWK: JSONValue
    /// Requests held by ``ProviderFault/hangingTokenEndpoint``.
    let held = HeldRequests()
    /// Registered passkeys, the challenges given out, the account pages signed in to.
    let passkeys = LockedState(ProviderPasskeys())
    /// The users, clients and settings the provider started with.
    public let configuration: DevProviderConfiguration

    /// The lifetime in seconds of the access and ID tokens issued from now on (at first the configuration's).
    public var accessTokenLifetime: Int {
        get { state.withLock { $0.accessTokenLifetime } }
        set { state.withLock { $0.accessTokenLifetime = newValue } }
    }

    struct Grant: Sendable {
        let clientID: String
        let redirectURI: String
        let codeChallenge: String
        let nonce: String?
        let subject: String
        let scope: String
        /// The thumbprint of the DPoP key the grant's tokens are bound to, once they are.
        var jkt: String? = nil
    }

    /// An access token handed out: for whom, to which client, with which scopes, for which
    /// audiences (the resources asked for, else the client), until when.
    struct IssuedAccessToken: Sendable {
        let subject: String
        let clientID: String
        let scope: String
        let audiences: [String]
        let expiresAt: Date
    }

    /// A person who has proved who they are, waiting on the consent page.
    struct PendingConsent: Sendable {
        let subject: String
        /// The authorization request's parameters: consent is for that request only.
        let query: [String: String]
    }

    /// The one-time code last sent to an address, and how many wrong tries it has left.
    struct OneTimeCode: Sendable {
        let code: String
        var triesLeft: Int
    }

    struct State: Sendable {
        var codes: [String: Grant] = [:]
        var refreshTokens: [String: Grant] = [:]
        var accessTokens: [String: IssuedAccessToken] = [:]
        var pendingConsents: [String: PendingConsent] = [:]
        var oneTimeCodes: [String: OneTimeCode] = [:]
        /// People past their password who owe a TOTP code, by interaction; the last TOTP time step used, by subject.
        var pendingTOTP: [String: String] = [:]
        var lastTOTPSteps: [String: UInt64] = [:]
        var outbox: [OutboxMessage] = []
        var requestCounts: [String: Int] = [:]
        /// Who waits for a path's first request (``firstRequest(to:)``).
        var requestWaiters: [String: [CheckedContinuation<Void, Never>]] = [:]
        var signedOutHints: [String] = []
        var languagesAsked: [LanguagesAsked] = []
        var faults: Set<ProviderFault> = []
        /// The issuer ``serve(as:)`` named, if any.
        var issuer: String?
        /// Clients registered through `POST /register`, by client ID.
        var registeredClients: [String: DynamicClient] = [:]
        var secrets = SecretLedger()
        var accessTokenLifetime = 300
        /// Device grants by device code, device codes by user code, user codes by verification-page interaction.
        var deviceGrants: [String: DeviceGrant] = [:]
        var userCodes: [String: String] = [:]
        var deviceInteractions: [String: String] = [:]
        /// The `jti`s of the client assertions accepted so far, with their expiry: each is good once.
        var assertionIDs: [String: Date] = [:]
        /// Pushed authorization requests by `request_uri`.
        var pushedRequests: [String: PushedRequest] = [:]
        /// DPoP: the thumbprint each bound access token is bound to, the proof `jti`s seen (with
        /// when they may be forgotten), and the nonce proofs must carry under ``ProviderFault/dpopNonce``.
        var dpopBindings: [String: String] = [:]
        var proofIDs: [String: Date] = [:]
        var dpopNonce = OpenIDProvider.randomToken()
    }

    /// The issuer, the base of every endpoint: `http://127.0.0.1:PORT`, or the one ``serve(as:)`` gave.
    public var issuer: String { state.withLock { $0.issuer } ?? server.baseURL.absoluteString }

    /// Names `issuer` (say `https://127.0.0.1:PORT`, an HTTPS front of this provider) as its issuer
    /// and its endpoints' base from now on: in discovery, tokens and WebFinger.
    public func serve(as issuer: String) {
        state.withLock { $0.issuer = issuer }
    }

    /// Starts a provider with the built-in configuration changed as given.
    public static func start(users: [User] = DevProviderConfiguration().users, clients: [Client] = [.demo],
                             accessTokenLifetime: Int = 300) async throws -> OpenIDProvider {
        var configuration = DevProviderConfiguration()
        configuration.users = users
        configuration.clients = clients
        configuration.accessTokenLifetime = accessTokenLifetime
        return try await start(configuration: configuration)
    }

    /// Starts a provider on `host` and `port` (0: a free port), signing ID tokens with a new key.
    public static func start(configuration: DevProviderConfiguration, host: String = "127.0.0.1",
                             port: Int = 0) async throws -> OpenIDProvider {
        try await start(configuration: configuration, signingKey: ES256PrivateKey(), host: host, port: port)
    }

    /// Starts a provider on `host` and `port` (0: a free port) that signs ID tokens with
    /// `signingKey` (see ``signingKey(pemFile:)``).
    package static func start(configuration: DevProviderConfiguration, signingKey: ES256PrivateKey,
                              host: String = "127.0.0.1", port: Int = 0) async throws -> OpenIDProvider {
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: signingKey, kid: JWKIdentifier(string: keyID))
        let rogueKeys = JWTKeyCollection()
        await rogueKeys.add(ecdsa: ES256PrivateKey(), kid: JWKIdentifier(string: keyID))
        let parameters = signingKey.publicKey.parameters!
        let jwk: JSONValue = .object(["kty": .string("EC"), "crv": .string("P-256"), "kid": .string(keyID), "use": .string("sig"),
                                      "alg": .string("ES256"), "x": .string(parameters.x), "y": .string(parameters.y)])
        let box = Mutex<OpenIDProvider?>(nil)
        let server = try await LocalHTTPServer.start(host: host, port: port) { request in
            guard let provider = box.withLock({ $0 }) else { return LocalHTTPResponse(status: 503) }
            return await provider.respond(to: request)
        }
        let provider = OpenIDProvider(server: server, keys: keys, rogueKeys: rogueKeys, jwk: jwk, configuration: configuration)
        box.withLock { $0 = provider }
        return provider
    }

    /// Reads an ES256 signing key from a PEM file (`openssl ecparam -name prime256v1 -genkey -noout`).
    /// - Throws: ``DevProviderConfigurationError``.
    package static func signingKey(pemFile: URL) throws(DevProviderConfigurationError) -> ES256PrivateKey {
        let pem: String
        do { pem = try String(contentsOf: pemFile, encoding: .utf8) } catch {
            throw .unreadable(path: pemFile.path, message: error.localizedDescription)
        }
        do { return try ES256PrivateKey(pem: pem) } catch {
            throw .invalidSigningKey(path: pemFile.path, message: String(describing: error))
        }
    }

    private init(server: LocalHTTPServer, keys: JWTKeyCollection, rogueKeys: JWTKeyCollection, jwk: JSONValue,
                 configuration: DevProviderConfiguration) {
        self.server = server
        self.keys = keys
        self.rogueKeys = rogueKeys
        self.publicJWK = jwk
        self.configuration = configuration
        self.state = LockedState(State(faults: configuration.faults, accessTokenLifetime: configuration.accessTokenLifetime))
    }

    /// Stops the provider (held requests are answered first).
    public func stop() async {
        held.releaseAll()
        await server.stop()
    }

    /// The faults injected now; change them at any time.
    public var faults: Set<ProviderFault> {
        get { state.withLock { $0.faults } }
        set { state.withLock { $0.faults = newValue } }
    }

    func has(_ fault: ProviderFault) -> Bool { state.withLock { $0.faults.contains(fault) } }

    /// How many refresh tokens are valid now (issued, and neither used by a rotation nor revoked).
    public var liveRefreshTokenCount: Int { state.withLock { $0.refreshTokens.count } }

    /// The messages sent so far, oldest first.
    public var outbox: [OutboxMessage] { state.withLock { $0.outbox } }

    /// The `id_token_hint`s of the logouts received so far.
    public var logoutHints: [String] { state.withLock { $0.signedOutHints } }

    /// The languages each request to the authorization endpoint asked for, oldest first.
    public var languagesAsked: [LanguagesAsked] { state.withLock { $0.languagesAsked } }

    /// Every secret this provider has received or handed out so far (state, nonce, PKCE values,
    /// codes, tokens, hints, passwords, client secrets), for tests that search a client's
    /// output for them.
    package var secretsSeen: Set<String> { state.withLock { $0.secrets.values } }

    private func respond(to request: LocalHTTPRequest) async -> LocalHTTPResponse {
        let response = await route(request)
        state.withLock { $0.secrets.record(request: request, response: response) }
        return response
    }

    private func route(_ request: LocalHTTPRequest) async -> LocalHTTPResponse {
        count(request.path)
        if has(.slow) { try? await Task.sleep(for: .seconds(configuration.slowResponseSeconds)) }
        switch (request.method, request.path) {
        case ("GET", "/.well-known/openid-configuration"): return json(ProviderDiscoveryDocument.json(issuer: issuer, configuration: configuration))
        case ("GET", "/jwks"): return json(keySetDocument)
        case ("GET", "/.well-known/webfinger"): return webFinger(request)
        case ("POST", "/register"): return register(request)
        case (_, let path) where path.hasPrefix("/register/"): return manageRegistration(request)
        case (_, "/authorize"): return authorize(request)
        case ("POST", "/token"): return await token(request)
        case ("GET", "/userinfo"): return await userinfo(request)
        case ("POST", "/revoke"): return revoke(request)
        case ("POST", "/introspect"): return await introspect(request)
        case (_, "/logout"): return endSession(request)
        case ("GET", "/outbox"): return outbox(request)
        case ("POST", "/device_authorization"): return await deviceAuthorization(request)
        case ("POST", "/par"): return await pushAuthorizationRequest(request)
        case (_, "/device"): return verifyDevice(request)
        case (_, "/account"): return account(request)
        default: return LocalHTTPResponse(status: 404, body: "not found")
        }
    }

    /// `GET /outbox?email=ADDRESS`: the messages sent to an address, newest last, as JSON.
    private func outbox(_ request: LocalHTTPRequest) -> LocalHTTPResponse {
        let address = Self.fields(request.query)["email"]
        let messages = outbox.filter { address == nil || $0.to.caseInsensitiveCompare(address!) == .orderedSame }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let body = (try? encoder.encode(messages)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        return LocalHTTPResponse(headers: ["Content-Type": "application/json", "Cache-Control": "no-store"], body: body)
    }

    // MARK: Helpers

    func json(_ value: JSONValue, status: Int = 200, headers: [String: String] = [:]) -> LocalHTTPResponse {
        LocalHTTPResponse(status: status, headers: headers.merging(["Content-Type": "application/json"]) { $1 }, body: value.description)
    }

    func oauthError(_ code: String, _ description: String?, status: Int = 400) -> LocalHTTPResponse {
        var body: [String: JSONValue] = ["error": .string(code)]
        if let description { body["error_description"] = .string(description) }
        return json(.object(body), status: status)
    }

    func client(_ clientID: String?) -> Client? {
        configuration.clients.first { $0.clientID == clientID } ?? clientID.flatMap { id in state.withLock { $0.registeredClients[id]?.client } }
    }

    func user(subject: String) -> User? { configuration.users.first { $0.subject == subject } }

    static func fields(_ encoded: String) -> [String: String] {
        Dictionary((try? FormURLEncoding.decode(encoded)) ?? [], uniquingKeysWith: { first, _ in first })
    }

    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
