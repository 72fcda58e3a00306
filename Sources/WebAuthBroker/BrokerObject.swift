import Foundation
import Logging
import OpenIDConnect
import SecretGate
import WebAuthBrokerContract
import WebAuthSession

/// `/org/webauthsession/Broker`, interface `org.webauthsession.Broker1`: each method checks its
/// arguments first (an error, before anything starts), then finds out who calls, then lets the
/// account's tokens go only as ``AccessPolicy`` and ``SecretGate`` allow.
@BusActor
final class BrokerObject {
    private let configuration: BrokerConfiguration
    private let callers: Callers
    private let requests: Requests
    private let access: AccessPolicy
    private let accounts: AccountStore
    private let tokens: TokenService
    private let idle: IdleTimer
    private let logger: Logger

    init(configuration: BrokerConfiguration, accounts: AccountStore, callers: Callers, requests: Requests, access: AccessPolicy, idle: IdleTimer,
         logger: Logger) {
        self.configuration = configuration
        self.callers = callers
        self.requests = requests
        self.access = access
        self.idle = idle
        self.logger = logger
        self.accounts = accounts
        tokens = TokenService(accounts: accounts, configuration: configuration)
    }

    /// The interface as exported.
    var interface: ExportedInterface {
        ExportedInterface(name: BrokerContract.interface, call: { [weak self] call in self?.handle(call) },
                          property: { [configuration] name in
                              switch name {
                              case BrokerContract.versionProperty: .uint32(BrokerContract.version)
                              case BrokerContract.canShowWindowsProperty: .boolean(configuration.hasDisplay)
                              default: nil
                              }
                          })
    }

    private func handle(_ call: IncomingCall) {
        switch call.method {
        case "SignIn": startRequest(call) { () async throws(BrokerError) in try await self.signIn(call) }
        case "SignOut": startRequest(call) { () async throws(BrokerError) in try await self.signOut(call) }
        case "GetToken": answer(call) { () async throws(BrokerError) in [.dictionary(try await self.token(call))] }
        case "ListAccounts": answer(call) { () async throws(BrokerError) in [.dictionaries(try await self.list(call))] }
        default: call.fail(.invalidArgument("no method \(call.method)"))
        }
    }

    /// Starts a request (`start` answers `call` with its handle), or answers `call` with why it
    /// cannot start; counted as work in flight until then.
    private func startRequest(_ call: IncomingCall, _ start: @escaping @BusActor () async throws(BrokerError) -> Void) {
        idle.begin()
        Task { @BusActor in
            defer { idle.end() }
            do throws(BrokerError) { try await start() } catch { call.fail(error) }
        }
    }

    /// Answers `call` with what `body` gives, counted as work in flight.
    private func answer(_ call: IncomingCall, _ body: @escaping @BusActor () async throws(BrokerError) -> [BusValue]) {
        idle.begin()
        Task { @BusActor in
            defer { idle.end() }
            do throws(BrokerError) { call.reply(try await body()) } catch {
                logger.info("\(call.method) from \(call.sender) failed: \(error.name.rawValue): \(error.message)")
                call.fail(error)
            }
        }
    }

    private func signIn(_ call: IncomingCall) async throws(BrokerError) {
        let options = try SignInOptions(call.options(1))
        let service = SignInService(accounts: accounts, configuration: configuration, logger: logger)
        try await request(call, account: options.account, token: options.handleToken, script: options.script) { admission, script throws(BrokerError) in
            let state = try await service.signIn(options, parent: admission.parent, script: script, admission: admission)
            guard let token = state.accessToken(for: .signIn) else { throw BrokerError(.providerError, "the provider gave no access token") }
            return try self.release(token, of: options.account, state: state, to: admission.app)
        }
    }

    private func signOut(_ call: IncomingCall) async throws(BrokerError) {
        let options = try SignOutOptions(call.options(1))
        let service = SignOutService(accounts: accounts, configuration: configuration, logger: logger)
        try await request(call, account: options.account, token: options.handleToken, script: options.script) { admission, script throws(BrokerError) in
            try await service.signOut(options, parent: admission.parent, script: script, admission: admission)
        }
    }

    /// Starts a request of `call` (SignIn, SignOut) on `account`: its parent window and script are
    /// checked now; `body` runs once the caller's app is known, with what decides, under the
    /// account's lock, whether it may act; its results are the `Response`.
    private func request(_ call: IncomingCall, account: String, token: String?, script source: ScriptSource?,
                         _ body: @escaping @BusActor (AccountAdmission, LoginScript?) async throws(BrokerError) -> [String: BusValue])
        async throws(BrokerError) {
        let parent = try Self.parentWindow(call.string(0))
        let script = try await CallerScript.load(source, of: call, allowed: configuration.allowsScripts)
        let (sender, method, access, accounts) = (call.sender, call.method, access, accounts)
        try requests.start(for: call, token: token) { @BusActor () throws(BrokerError) -> [String: BusValue] in
            let app = try await self.callers.application(of: sender)
            self.logger.info("\(method) from \(app.id) for the account '\(account)'")
            return try await body(AccountAdmission(app: app, account: account, parent: parent, access: access, accounts: accounts), script)
        }
    }

    private func token(_ call: IncomingCall) async throws(BrokerError) -> [String: BusValue] {
        let options = try TokenOptions(call.options(0))
        let app = try await callers.application(of: call.sender)
        var asked: AuthState?
        if try !access.mayUse(app, account: options.account) {
            guard let existing = try await accounts.load(options.account).state else {
                throw BrokerError(.notSignedIn, "no saved sign-in named '\(options.account)'")
            }
            try await access.check(app, account: options.account, issuer: existing.configuration.issuer, parent: nil)
            asked = existing
        }
        let (token, state) = try await tokens.token(options)
        // The person answered for the sign-in on screen; one made in its place meanwhile (signed out,
        // then signed in anew by another app) is not what they allowed. The gate below reads the
        // answers again, so a grant that a sign-out took away meanwhile counts too.
        if let asked, (asked.configuration.issuer, asked.clientID, asked.idToken?.subject) != (state.configuration.issuer, state.clientID, state.idToken?.subject) {
            throw BrokerError(.accessDenied, "the account '\(options.account)' was signed in anew while the person was asked; ask again")
        }
        return try release(token, of: options.account, state: state, to: app)
    }

    private func list(_ call: IncomingCall) async throws(BrokerError) -> [[String: BusValue]] {
        let app = try await callers.application(of: call.sender)
        var entries: [[String: BusValue]] = []
        for name in try await accounts.names() where try access.mayUse(app, account: name) {
            guard let state = try? await accounts.load(name).state else { continue }
            entries.append(BrokerResults.account(name, state: state))
        }
        return entries
    }

    /// The results holding `token`, once the gate lets it go to `app` and the token is text a
    /// header can carry.
    private func release(_ token: AccessToken, of account: String, state: AuthState, to app: CallerApplication) throws(BrokerError) -> [String: BusValue] {
        let recipient = AccessPolicy.recipient(app)
        do {
            try access.gate().check(.accessToken(profile: account), to: recipient)
            try TokenText.check(token.token, as: .accessToken(profile: account), to: recipient)
        } catch let refusal as SecretRefusal {
            throw BrokerError(refusal.reason == .notGranted ? .accessDenied : .providerError, "\(refusal)")
        } catch let error as BrokerError {
            throw error
        } catch {
            throw BrokerError(.failed, "\(error)")
        }
        logger.info("a token of the account '\(account)' went to \(app.id)")
        return BrokerResults.token(token, account: account, state: state)
    }

    /// The caller's `parent_window`.
    private static func parentWindow(_ identifier: String) throws(BrokerError) -> ParentWindow? {
        do { return try ParentWindow.portal(identifier) } catch { throw .invalidArgument("\(error)") }
    }
}
