import ArgumentParser
import Foundation
import Synchronization
import OpenIDConnect
import WebAuthSession
import WebAuthCommandLine
import WebAuthSupport

/// `webauth login`: sign in through the embedded engine, save the sign-in, print a summary.
struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sign in to an OpenID Connect provider and save the sign-in.",
        discussion: """
            Shows the provider's login page (in a window, or headless with --headless; headless \
            without --script, a page that waits for input fails once it settles, exit 7), catches the \
            redirect, exchanges the code with PKCE, validates the ID token, saves the sign-in (the \
            Secret Service when available, else a 0600 file under $XDG_STATE_HOME/webauthsession; \
            --store chooses), and prints a JSON summary: subject, scopes, access-token expiry, ID-token claims. Tokens \
            are printed only with --show-tokens.
            """)

    @OptionGroup(title: "Provider and client") var client: ClientOptions

    @OptionGroup var request: AuthorizationRequestOptions

    @Option(help: "The response type: code, id_token, id_token token, code id_token, token.")
    var responseType: String = "code"

    @OptionGroup(title: "Login script") var scripting: PageScriptOptions

    @Option(help: ArgumentHelp("How to sign in: embedded (the provider's page here), browser (your browser, RFC 8252) or device (a code to enter on another device, RFC 8628). Default: embedded when there is a display or --headless; with none, device when the provider has a device authorization endpoint, else browser.",
                               valueName: "flow"))
    var flow: LoginFlow?

    @Flag(help: "Sign in in the desktop's browser instead (RFC 8252), as --flow browser: for providers that refuse embedded views. The redirect comes to http://127.0.0.1:PORT/callback.")
    var systemBrowser = false

    @Option(help: ArgumentHelp("With --flow browser: the program to open the URL with (its last argument), instead of xdg-open.",
                               valueName: "path"))
    var browserCommand: String?

    @Option(help: ArgumentHelp("Write the navigation log (JSON) here, whether the sign-in works or not.", valueName: "file"))
    var trace: String?

    @OptionGroup(title: "Presentation") var presentation: PresentationOptions
    @OptionGroup(title: "Saved sign-in") var profile: ProfileOptions

    @Flag(help: "Also print the access, refresh and ID tokens.")
    var showTokens = false

    // Read by `webauth`'s front (BrokeredLogin), which sends the sign-in to a running broker
    // unless this is given; here, in-process, it has nothing left to do.
    @Flag(help: "Sign in in this process even when a sign-in broker (webauth broker) runs. Without it, a login with a --profile, in a window, with no option but --issuer, --client-id, --redirect-uri, --scope, --param, --timeout, --flow embedded and --show-tokens, signs in through a running broker's warm engine.")
    var noBroker = false

    func run() async throws {
        try await reportingFailures(ifInterrupted: "the sign-in was cancelled; nothing was saved", offering: PresentationOptions.offered) {
            let narrator = Narrator(verbose: presentation.verbose, quiet: true)
            // A profile already signed in, or whose client registered itself (webauth register), needs no provider or client options.
            let saved = client.namesNoClient ? await profile.savedClientState() : nil
            let settings = try client.resolve(saved: saved)
            let deadline = presentation.deadline()
            // Headless with no script, nobody can type: a provider that remembers the person may still
            // finish by itself, and a page that waits for input fails once it settles, not at --timeout.
            let page = PageScriptRun(script: try scripting.loginScript(orElse: presentation.headless ? LoginScript([]) : nil), narrator: narrator,
                                     verbose: presentation.verbose, http: deadline.http(settings.network))
            guard let responseType = AuthorizationRequest.ResponseType(rawValue: responseType) else {
                throw CommandFailure(.usage, "unknown response type '\(responseType)'")
            }
            let parameters = try request.parameters(settings)
            try settings.network.prepareEngine(websiteData: profile.websiteData())
            // A headless page starts the engine while discovery and the profile's store are on their
            // way; the command leaves (with its status, or Ctrl-C's) only once that start has ended.
            let engine: EngineHeadStart.Page = self.flow != nil || systemBrowser ? .none : presentation.headless ? .headless : .window
            try await EngineHeadStart.overlapping(engine) {
                let scopes = request.scopes(settings)
                let signIn = { @Sendable () async throws -> AuthState in
                    try await self.signIn(settings, client: settings.client(http: deadline.http(settings.network)), deadline: deadline, scopes: scopes,
                                          parameters: parameters, responseType: responseType, page: page, narrator: narrator)
                }
                let name = profile.name
                // Checked before any page opens, so that a sign-in is never made for nowhere to keep it.
                guard let store = try await ProfileStore.forSaving(name: name, choice: profile.store ?? settings.store) else {
                    print(SignInSummary.json(try await signIn(), store: "none", showTokens: showTokens).description)
                    return
                }
                try await ProfileStore.whileHoldingLock(of: name, waitingAtMost: deadline.remaining) {
                    let previous = try await ProfileStore.load(name, from: store)
                    var state = try await signIn()
                    // A client taken from the saved sign-in keeps its secret's place, unless this command gave another.
                    state.client = settings.savedClient(scopes: scopes, secret: client.secret.reference() ?? saved?.client?.clientSecret,
                                                        for: state.configuration)
                    state.client?.route = settings.network.saved
                    if let registration = previous?.registration, registration.clientID == state.clientID { state.registration = registration }
                    do throws(AuthStateStoreError) { try await store.save(state) } catch { throw CommandFailure(error) }
                    if let previous {
                        await Self.revokeRefreshToken(of: previous, replacedBy: state, settings.authentication, http: deadline.http(settings.network), narrator)
                    }
                    print(SignInSummary.json(state, store: ProfileStore.describe(store), showTokens: showTokens).description)
                }
            }
        }
    }

    /// Signs in as the options say (the embedded page, the browser or the device grant, within
    /// `deadline`); a failure leaves its artefacts when asked for (or with a script).
    private func signIn(_ settings: ClientSettings, client: OpenIDConnectClient, deadline: CommandDeadline, scopes: [String],
                        parameters: [String: String], responseType: AuthorizationRequest.ResponseType, page: PageScriptRun,
                        narrator: Narrator) async throws -> AuthState {
        let others = OtherLoginFlows(settings: settings, client: client, deadline: deadline, scopes: scopes, parameters: parameters,
                                     browserCommand: browserCommand, verbose: presentation.verbose)
        let flow = self.flow ?? (systemBrowser ? .browser : nil)
        // In a terminal, the device grant gets the same periodic "still waiting" reminder as the page.
        if flow == .device { return try await narrator.waiting(for: "the sign-in on the other device") { try await others.device() } }
        let outcome: Result<SignInResult, SignInError>
        do {
            outcome = .success(try await narrator.waiting(for: "the sign-in") {
                // Discovery first, so that the page gets what is left of --timeout.
                do throws(OpenIDConnectError) { _ = try await client.providerConfiguration() } catch { throw SignInError.openIDConnect(error) }
                if flow == .browser { return try await others.browser() }
                let options = page.applied(to: settings.network.applied(to: presentation.sessionOptions(websiteData: profile.websiteData(), within: deadline)))
                return try await client.signIn(scopes: scopes, responseType: responseType, additionalParameters: parameters,
                                               options: options, script: { try await page($0) })
            })
        } catch let error as SignInError {
            if case .session(.noDisplayForWindow) = error, flow == nil, page.script == nil {
                return try await narrator.waiting(for: "the sign-in") { try await others.withoutDisplay() }
            }
            outcome = .failure(error)
        }
        if let trace { await Self.writeTrace(of: page.shown.session, to: trace, narrator) }
        switch outcome {
        case .success(let result): return result.authState
        case .failure(let error):
            // Interrupted (Ctrl-C, SIGTERM): no artifacts; the interruption's one line says what happened.
            if Task.isCancelled { throw CommandFailure(error) }
            let failure = failure(error)
            // Artifacts come with a login script of the person's own, or when asked for.
            guard scripting.script != nil || scripting.artifacts != nil,
                  let report = await page.report(of: error, requested: scripting.artifacts != nil) else { throw failure }
            throw CommandFailure(failure.status, failure.message + FailureArtifacts.leave(report, in: scripting.artifacts))
        }
    }

    /// What to say about `error`: a headless page with no script that stood still is waiting for
    /// what only a script (or a person, in a window) can type.
    private func failure(_ error: SignInError) -> CommandFailure {
        guard presentation.headless, scripting.script == nil, case .session(.pageSettled(let page, let after)) = error else { return CommandFailure(error) }
        let hasDisplay = GraphicalSession.hasDisplay(CommandEnvironment.original)
        // Without a display there is no window to sign in in: a person's way is the device grant.
        let otherwise = hasDisplay ? "drop --headless to sign in in a window" : "--flow device to sign in on another device, as there is no display here"
        return CommandFailure(.scriptFailed, "sign-in failed: the provider's page stood still for \(after) with no redirect: \(page)",
                              advice: "A headless sign-in needs --script FILE to fill in the page (or \(otherwise)).")
    }

    /// Revokes the refresh token of the sign-in a new one replaced (same provider and client), so
    /// that none is left valid and unknown; a failure is only a warning.
    private static func revokeRefreshToken(of previous: AuthState, replacedBy state: AuthState, _ authentication: ClientAuthentication,
                                           http: any HTTPClient, _ narrator: Narrator) async {
        guard previous.configuration.issuer == state.configuration.issuer, previous.clientID == state.clientID,
              previous.refreshToken != state.refreshToken else { return }
        do { _ = try await previous.revokeRefreshToken(authentication: authentication, http: http) } catch {
            narrator.warn("the replaced sign-in's refresh token could not be revoked: \(error)")
        }
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
