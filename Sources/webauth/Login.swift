import ArgumentParser
import Foundation
import Synchronization
import OpenIDConnect
import WebAuthSession

/// `webauth login`: sign in through the embedded engine, save the sign-in, print a summary.
struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sign in to an OpenID Connect provider and save the sign-in.",
        discussion: """
            Shows the provider's login page (in a window, or headless with --headless), catches the \
            redirect, exchanges the code with PKCE, validates the ID token, saves the sign-in (the \
            Secret Service when available, else a 0600 file under $XDG_STATE_HOME/webauthsession; \
            --store chooses), and prints a JSON summary: subject, scopes, access-token expiry, ID-token claims. Tokens \
            are printed only with --show-tokens.
            """)

    @OptionGroup(title: "Provider and client") var client: ClientOptions

    @Option(name: .customLong("scope"), help: "A scope to ask for (repeatable, or space-separated). Default: openid profile offline_access.")
    var scopes: [String] = []

    @Option(name: .customLong("param"), help: ArgumentHelp("An extra authorization parameter (repeatable), e.g. acr_values=idp:google or prompt=login.",
                                                           valueName: "name=value"))
    var parameters: [String] = []

    @Option(help: "The response type: code, id_token, id_token token, code id_token, token.")
    var responseType: String = "code"

    @Option(help: ArgumentHelp("A login script (JSON or YAML) to fill the page; secrets come from the environment.", valueName: "file"))
    var script: String?

    @Flag(help: "Sign in in the desktop's browser instead (RFC 8252): for providers that refuse embedded views. The redirect comes to http://127.0.0.1:PORT/callback.")
    var systemBrowser = false

    @Option(help: ArgumentHelp("With --system-browser: the program to open the URL with (its last argument), instead of xdg-open.",
                               valueName: "path"))
    var browserCommand: String?

    @Option(help: ArgumentHelp("With --script: fail when the page stays still this long after the last step with no redirect (default: 10; 0: wait for --timeout).",
                               valueName: "seconds"))
    var settleTime: Double?

    @Option(help: ArgumentHelp("Where a failed sign-in leaves its screenshot, page facts and navigation log (default with --script: a new directory under $TMPDIR).",
                               valueName: "directory"))
    var artifacts: String?

    @Option(help: ArgumentHelp("Write the navigation log (JSON) here, whether the sign-in works or not.", valueName: "file"))
    var trace: String?

    @OptionGroup(title: "Presentation") var presentation: PresentationOptions
    @OptionGroup(title: "Saved sign-in") var profile: ProfileOptions

    @Flag(help: "Also print the access, refresh and ID tokens.")
    var showTokens = false

    func run() async throws {
        try await reportingFailures(ifInterrupted: "the sign-in was cancelled; nothing was saved") {
            let narrator = Narrator(verbose: presentation.verbose, quiet: true)
            let settings = try client.resolve()
            let loginScript = try readScript()
            guard let responseType = AuthorizationRequest.ResponseType(rawValue: responseType) else {
                throw CommandFailure(.usage, "unknown response type '\(responseType)'")
            }
            let parameters = settings.parameters.merging(try Self.parameters(parameters)) { $1 }
            let scopes = scopes.isEmpty ? settings.scopes ?? ["openid", "profile", "offline_access"]
                : scopes.flatMap { $0.split(separator: " ").map(String.init) }
            let name = profile.name
            // Checked before any page opens, so that a sign-in is never made for nowhere to keep it.
            guard let store = try await ProfileStore.forSaving(name: name, choice: profile.store ?? settings.store) else {
                let state = try await signIn(settings, scopes, parameters, responseType, loginScript, narrator)
                print(SignInSummary.json(state, store: "none", showTokens: showTokens).description)
                return
            }
            try await ProfileStore.whileHoldingLock(of: name, waitingAtMost: .seconds(presentation.timeout)) {
                let previous = try await ProfileStore.load(name, from: store)
                var state = try await signIn(settings, scopes, parameters, responseType, loginScript, narrator)
                state.client = SavedClient(redirectURI: settings.redirectURI.string, scopes: scopes,
                                           authenticationMethod: .init(settings.authentication), clientSecret: client.secret.reference())
                do throws(AuthStateStoreError) { try await store.save(state) } catch { throw CommandFailure(error) }
                if let previous { await Self.revokeRefreshToken(of: previous, replacedBy: state, settings.authentication, narrator) }
                print(SignInSummary.json(state, store: ProfileStore.describe(store), showTokens: showTokens).description)
            }
        }
    }

    /// Signs in as the options say; a failure leaves its artefacts when asked for (or with a script).
    private func signIn(_ settings: ClientSettings, _ scopes: [String], _ parameters: [String: String],
                        _ responseType: AuthorizationRequest.ResponseType, _ loginScript: LoginScript?,
                        _ narrator: Narrator) async throws -> AuthState {
        let verbose = presentation.verbose
        let shown = SessionBox()
        let progress = ScriptProgress()
        let outcome: Result<SignInResult, SignInError>
        do {
            outcome = .success(try await narrator.waiting(for: "the sign-in") {
                if systemBrowser {
                    return try await settings.client.signInWithSystemBrowser(
                        scopes: scopes, additionalParameters: parameters, browser: browserCommand.map { .command([$0]) } ?? .desktopDefault,
                        timeout: .seconds(presentation.timeout))
                }
                return try await settings.client.signIn(
                    scopes: scopes, responseType: responseType, additionalParameters: parameters,
                    options: presentation.sessionOptions(websiteData: profile.websiteData())) { session in
                        shown.session = session
                        narrator.follow(session)
                        try await loginScript?.run(in: session) { number, step in
                            progress.starting(number)
                            if verbose { narrator.say("step \(number): \(step)") }
                        }
                        progress.finish()
                    }
            })
        } catch let error as SignInError {
            outcome = .failure(error)
        }
        if let trace { await Self.writeTrace(of: shown.session, to: trace, narrator) }
        switch outcome {
        case .success(let result): return result.authState
        case .failure(let error):
            // Interrupted (Ctrl-C, SIGTERM): no artifacts; the interruption's one line says what happened.
            if Task.isCancelled { throw CommandFailure(error) }
            if case .script(_, let report?) = error { throw Self.leavingArtifacts(CommandFailure(error), report, in: artifacts) }
            guard var report = await shown.session?.failureSnapshot, loginScript != nil || artifacts != nil else { throw CommandFailure(error) }
            if let loginScript { progress.describe(loginScript, in: &report) }
            throw Self.leavingArtifacts(CommandFailure(error), report, in: artifacts)
        }
    }

    /// Revokes the refresh token of the sign-in a new one replaced (same provider and client), so
    /// that none is left valid and unknown; a failure is only a warning.
    private static func revokeRefreshToken(of previous: AuthState, replacedBy state: AuthState, _ authentication: ClientAuthentication,
                                           _ narrator: Narrator) async {
        guard previous.configuration.issuer == state.configuration.issuer, previous.clientID == state.clientID,
              previous.refreshToken != state.refreshToken else { return }
        do { _ = try await previous.revokeRefreshToken(authentication: authentication) } catch {
            narrator.warn("the replaced sign-in's refresh token could not be revoked: \(error)")
        }
    }

    /// The --script file, with --settle-time applied.
    private func readScript() throws(CommandFailure) -> LoginScript? {
        guard let script else { return nil }
        var loginScript: LoginScript
        do { loginScript = try LoginScript(contentsOfFile: script) } catch { throw CommandFailure(.usage, "\(error)") }
        if let settleTime {
            guard settleTime >= 0 else { throw CommandFailure(.usage, "--settle-time must not be negative") }
            loginScript.settleTimeout = LoginScript.settleTimeout(seconds: settleTime)
        }
        return loginScript
    }

    /// Leaves the failed sign-in's artefacts in `directory` (or a new temporary one) and adds
    /// where to `failure`'s message.
    private static func leavingArtifacts(_ failure: CommandFailure, _ report: FailureReport, in directory: String?) -> CommandFailure {
        let target = directory.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("webauth-failure-\(UUID().uuidString.prefix(8))")
        do { try report.write(to: target) } catch {
            return CommandFailure(failure.status, "\(failure.message) (no artifacts: \(target.path): \(error.localizedDescription))")
        }
        return CommandFailure(failure.status, "\(failure.message); screenshot, page and navigation log in \(target.path)")
    }

    /// Writes the session's navigation log as JSON.
    private static func writeTrace(of session: WebAuthenticationSession?, to path: String, _ narrator: Narrator) async {
        let log = await session?.navigationLog ?? []
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        do { try PrivateFile.write(try encoder.encode(log), to: URL(fileURLWithPath: path)) } catch {
            narrator.warn("the trace could not be written to \(path): \(error)")
        }
    }

    /// `name=value` pairs.
    static func parameters(_ pairs: [String]) throws(CommandFailure) -> [String: String] {
        var parameters: [String: String] = [:]
        for pair in pairs {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw CommandFailure(.usage, "--param '\(pair)' is not name=value")
            }
            parameters[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        return parameters
    }
}

/// The session a sign-in showed, kept for its navigation log.
final class SessionBox: Sendable {
    private let shown = Mutex<WebAuthenticationSession?>(nil)

    var session: WebAuthenticationSession? {
        get { shown.withLock { $0 } }
        set { shown.withLock { $0 = newValue } }
    }
}
