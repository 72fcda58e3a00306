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
///
/// Each endpoint is a type of its own that keeps its state: `AuthorizationEndpoint` (the codes
/// it issues), `TokenEndpoint`, `DeviceAuthorizationEndpoint` (the device grants),
/// `PushedAuthorizationEndpoint` (the pushed requests), `RegistrationEndpoint` (with the
/// `ClientRegistry`), `UserInfoEndpoint`, `IntrospectionEndpoint`, `RevocationEndpoint` (over
/// the `TokenLedger`), `EndSessionEndpoint`, `WebFingerEndpoint` and `PasskeyAccounts`;
/// this type composes them, routes each request to one, and answers the tests' questions.
public final class OpenIDProvider: Sendable {
    /// A person who can sign in.
    public typealias User = DevProviderConfiguration.User
    /// A registered client.
    public typealias Client = DevProviderConfiguration.Client

    /// How many wrong codes an address may try before it must ask for a new one.
    public static let oneTimeCodeTries = 3

    private let server: LocalHTTPServer
    private let context: ProviderContext
    private let signer: IDTokenSigner
    private let ledger: TokenLedger
    private let requests: RequestCounter
    private let email: EmailCodes
    private let passkeys: PasskeyAccounts
    private let authorization: AuthorizationEndpoint
    private let tokenEndpoint: TokenEndpoint
    private let device: DeviceAuthorizationEndpoint
    private let pushed: PushedAuthorizationEndpoint
    private let registration: RegistrationEndpoint
    private let userInfo: UserInfoEndpoint
    private let introspection: IntrospectionEndpoint
    private let revocation: RevocationEndpoint
    private let endSession: EndSessionEndpoint
    private let webFinger: WebFingerEndpoint
    /// Every secret that crossed the provider. Not a `Mutex`: see ``LockedState`` (server threads).
    private let secrets = LockedState(SecretLedger())

    /// The users, clients and settings the provider started with.
    public var configuration: DevProviderConfiguration { context.configuration }

    /// The lifetime in seconds of the access and ID tokens issued from now on (at first the configuration's).
    public var accessTokenLifetime: Int {
        get { context.accessTokenLifetime }
        set { context.accessTokenLifetime = newValue }
    }

    /// The issuer, the base of every endpoint: `http://127.0.0.1:PORT`, or the one ``serve(as:)`` gave.
    public var issuer: String { context.issuer }

    /// Names `issuer` (say `https://127.0.0.1:PORT`, an HTTPS front of this provider) as its issuer
    /// and its endpoints' base from now on: in discovery, tokens and WebFinger.
    public func serve(as issuer: String) {
        context.serve(as: issuer)
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
        let box = Mutex<OpenIDProvider?>(nil)
        let server = try await LocalHTTPServer.start(host: host, port: port) { request in
            guard let provider = box.withLock({ $0 }) else { return LocalHTTPResponse(status: 503) }
            return await provider.respond(to: request)
        }
        let context = ProviderContext(configuration: configuration, baseURL: server.baseURL)
        let clients = ClientRegistry(configured: configuration.clients)
        let signer = await IDTokenSigner(signingKey: signingKey, context: context, clients: clients)
        let provider = OpenIDProvider(server: server, context: context, clients: clients, signer: signer)
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

    private init(server: LocalHTTPServer, context: ProviderContext, clients: ClientRegistry, signer: IDTokenSigner) {
        let ledger = TokenLedger()
        let requests = RequestCounter()
        let email = EmailCodes()
        let passkeys = PasskeyAccounts(context: context)
        let authenticator = ClientAuthenticator(context: context, clients: clients)
        let dpop = DPoPProofChecker(context: context)
        let login = LoginFlow(context: context, totp: TOTPFactor(context: context), email: email, passkeys: passkeys)
        let pushed = PushedAuthorizationEndpoint(context: context, clients: clients, authenticator: authenticator)
        let sessions = ProviderSessions(enabled: context.configuration.remembersPeople)
        let authorization = AuthorizationEndpoint(context: context, clients: clients, login: login, pushed: pushed, sessions: sessions)
        let device = DeviceAuthorizationEndpoint(context: context, authenticator: authenticator, login: login)
        (self.server, self.context, self.signer, self.ledger, self.requests) = (server, context, signer, ledger, requests)
        (self.email, self.passkeys, self.authorization, self.device, self.pushed) = (email, passkeys, authorization, device, pushed)
        tokenEndpoint = TokenEndpoint(context: context, authenticator: authenticator, dpop: dpop, ledger: ledger,
                                      issuer: TokenIssuer(context: context, ledger: ledger, signer: signer),
                                      authorization: authorization, device: device, counter: requests)
        registration = RegistrationEndpoint(context: context, clients: clients)
        userInfo = UserInfoEndpoint(context: context, ledger: ledger, dpop: dpop)
        introspection = IntrospectionEndpoint(authenticator: authenticator, ledger: ledger)
        revocation = RevocationEndpoint(ledger: ledger)
        endSession = EndSessionEndpoint(context: context, clients: clients, sessions: sessions)
        webFinger = WebFingerEndpoint(context: context)
    }

    /// Stops the provider (held requests are answered first).
    public func stop() async {
        tokenEndpoint.releaseHeldRequests()
        await server.stop()
    }

    /// The faults injected now; change them at any time.
    public var faults: Set<ProviderFault> {
        get { context.faults }
        set { context.faults = newValue }
    }

    /// How many refresh tokens are valid now (issued, and neither used by a rotation nor revoked).
    public var liveRefreshTokenCount: Int { ledger.liveRefreshTokenCount }

    /// The messages sent so far, oldest first.
    public var outbox: [OutboxMessage] { email.outbox }

    /// The `id_token_hint`s of the logouts received so far.
    public var logoutHints: [String] { endSession.logoutHints }

    /// The languages each request to the authorization endpoint asked for, oldest first.
    public var languagesAsked: [LanguagesAsked] { authorization.languagesAsked }

    /// How many passkeys `subject` has registered.
    public func passkeyCount(of subject: String) -> Int { passkeys.count(of: subject) }

    /// How many requests reached `path` (for example `/token` with `grant_type=refresh_token`: see ``refreshCount``).
    public func requestCount(_ path: String) -> Int { requests.count(of: path) }

    /// How many refresh-token grants the token endpoint has answered, successful or not.
    public var refreshCount: Int { requestCount("/token#refresh_token") }

    /// Returns once a request has reached `path` (at once if one has).
    public func firstRequest(to path: String) async { await requests.firstRequest(to: path) }

    /// Every secret this provider has received or handed out so far (state, nonce, PKCE values,
    /// codes, tokens, hints, passwords, client secrets), for tests that search a client's
    /// output for them.
    package var secretsSeen: Set<String> { secrets.withLock { $0.values } }

    private func respond(to request: LocalHTTPRequest) async -> LocalHTTPResponse {
        let response = await route(request)
        secrets.withLock { $0.record(request: request, response: response) }
        return response
    }

    private func route(_ request: LocalHTTPRequest) async -> LocalHTTPResponse {
        requests.count(request.path)
        if context.has(.slow) { try? await Task.sleep(for: .seconds(configuration.slowResponseSeconds)) }
        switch (request.method, request.path) {
        case ("GET", "/.well-known/openid-configuration"): return .json(ProviderDiscoveryDocument.json(issuer: issuer, configuration: configuration))
        case ("GET", "/jwks"): return .json(signer.keySetDocument)
        case ("GET", "/.well-known/webfinger"): return webFinger.respond(to: request)
        case ("POST", "/register"): return registration.register(request)
        case (_, let path) where path.hasPrefix("/register/"): return registration.manageRegistration(request)
        case (_, "/authorize"): return authorization.respond(to: request)
        case ("POST", "/token"): return await tokenEndpoint.respond(to: request)
        case ("GET", "/userinfo"): return await userInfo.respond(to: request)
        case ("POST", "/revoke"): return revocation.respond(to: request)
        case ("POST", "/introspect"): return await introspection.respond(to: request)
        case (_, "/logout"): return endSession.respond(to: request)
        case ("GET", "/outbox"): return email.respond(to: request)
        case ("POST", "/device_authorization"): return await device.authorize(request)
        case ("POST", "/par"): return await pushed.respond(to: request)
        case (_, "/device"): return device.verify(request)
        case (_, "/account"): return passkeys.respond(to: request)
        default: return LocalHTTPResponse(status: 404, body: "not found")
        }
    }
}
