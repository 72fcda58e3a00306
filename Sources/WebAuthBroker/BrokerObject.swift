import Foundation
import Logging
import OpenIDConnect
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
                          property: { name in name == "Version" ? .uint32(BrokerContract.version) : nil })
    }

    private func handle(_ call: IncomingCall) {
        switch call.method {
        case "SignIn": startRequest(call) { () throws(BrokerError) in try self.signIn(call) }
        case "SignOut": startRequest(call) { () throws(BrokerError) in try self.signOut(call) }
        case "GetToken": answer(call) { () async throws(BrokerError) in [.dictionary(try await self.token(call))] }
        case "ListAccounts": answer(call) { () async throws(BrokerError) in [.dictionaries(try await self.list(call))] }
        default: call.fail(.invalidArgument("no method \(call.method)"))
        }
    }

    /// Starts a request, or answers `call` with why it cannot start.
    private func startRequest(_ call: IncomingCall, _ start: () throws(BrokerError) -> Void) {
        do { try start() } catch { call.fail(error) }
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

    private func signIn(_ call: IncomingCall) throws(BrokerError) {
        let options = try SignInOptions(call.options(1))
        let service = SignInService(accounts: accounts, configuration: configuration, logger: logger)
        try request(call, account: options.account, token: options.handleToken, script: options.script) { app, parent, script throws(BrokerError) in
            if let existing = try await self.accounts.load(options.account).state {
                try await self.access.check(app, account: options.account, issuer: existing.configuration.issuer, parent: parent)
            }
            let state = try await service.signIn(options, parent: parent, script: script)
            try self.access.allow(app, account: options.account)
            guard let token = state.accessToken(for: .signIn) else { throw BrokerError(.providerError, "the provider gave no access token") }
            return try self.release(token, of: options.account, state: state, to: app)
        }
    }

    private func signOut(_ call: IncomingCall) throws(BrokerError) {
        let options = try SignOutOptions(call.options(1))
        let service = SignOutService(accounts: accounts, configuration: configuration, logger: logger)
        try request(call, account: options.account, token: options.handleToken, script: options.script) { app, parent, script throws(BrokerError) in
            guard let existing = try await self.accounts.load(options.account).state else {
                throw BrokerError(.notSignedIn, "no saved sign-in named '\(options.account)'")
            }
            try await self.access.check(app, account: options.account, issuer: existing.configuration.issuer, parent: parent)
            return try await service.signOut(options, parent: parent, script: script)
        }
    }

    /// Starts a request of `call` (SignIn, SignOut) on `account`: its parent window and script are
    /// checked now; `body` runs once the caller's app is known, and its results are the `Response`.
    private func request(_ call: IncomingCall, account: String, token: String?, script path: String?,
                         _ body: @escaping @BusActor (CallerApplication, ParentWindow?, LoginScript?) async throws(BrokerError) -> [String: BusValue])
        throws(BrokerError) {
        let parent = try Self.parentWindow(call.string(0))
        let script = try loadScript(path)
        let (sender, method) = (call.sender, call.method)
        try requests.start(for: call, token: token) { @BusActor () throws(BrokerError) -> [String: BusValue] in
            let app = try await self.callers.application(of: sender)
            self.logger.info("\(method) from \(app.id) for the account '\(account)'")
            return try await body(app, parent, script)
        }
    }

    private func token(_ call: IncomingCall) async throws(BrokerError) -> [String: BusValue] {
        let options = try TokenOptions(call.options(0))
        let app = try await callers.application(of: call.sender)
        if try !access.mayUse(app, account: options.account) {
            guard let existing = try await accounts.load(options.account).state else {
                throw BrokerError(.notSignedIn, "no saved sign-in named '\(options.account)'")
            }
            try await access.check(app, account: options.account, issuer: existing.configuration.issuer, parent: nil)
        }
        let (token, state) = try await tokens.token(options)
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

    /// The login script `path` names, when the broker allows scripts; not one that reads a
    /// variable the broker's process environment keeps (``ScriptEnvironment``).
    private func loadScript(_ path: String?) throws(BrokerError) -> LoginScript? {
        guard let path else { return nil }
        guard configuration.allowsScripts else {
            throw .invalidArgument("option 'script' needs a broker started with --allow-scripts (for tests and CI)")
        }
        let script: LoginScript
        do { script = try LoginScript(contentsOfFile: path) } catch { throw .invalidArgument("\(error)") }
        if let kept = script.environmentVariableNames.sorted().first(where: ScriptEnvironment.keeps) {
            throw .invalidArgument("the login script reads $\(kept), which stays in the broker's environment (WebKit's processes inherit it): "
                + "give the secret a variable of its own")
        }
        return script
    }

    /// The caller's `parent_window`.
    private static func parentWindow(_ identifier: String) throws(BrokerError) -> ParentWindow? {
        do { return try ParentWindow.portal(identifier) } catch { throw .invalidArgument("\(error)") }
    }
}
