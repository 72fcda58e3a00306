import ArgumentParser
import Foundation
import OpenIDConnect
import WebAuthExitStatus
import WebAuthSession
import WebAuthCommandLine

/// `webauth logout`: end the session at the provider, revoke the refresh token, forget the sign-in.
struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sign out: end the provider's session (RP-Initiated Logout), revoke the refresh token, delete the saved sign-in.",
        discussion: """
            The provider's end-session page is shown (headless with --headless, or when there is no \
            display) and its redirect back to the post-logout redirect URI is caught. A provider that asks "Do you want to \
            sign out?" needs a person, or a --script that answers; headless without a script, \
            such a page fails once it has stood still for the settle time. Whatever the provider's \
            page does, the refresh token is revoked (when the provider has a revocation endpoint), \
            and the saved sign-in and a --profile's cookies are deleted. Exits 0 when every part \
            worked, 3 when only the provider's part did not ("signed out here; the provider's \
            sign-out did not finish: ..."), 4 when that was because the provider could not be reached. With --local, the provider's page is not shown, \
            and a saved sign-in that cannot be read (damaged, or saved by a newer version) is removed all the same.
            """)

    @OptionGroup var profile: ProfileOptions
    @OptionGroup var secret: ClientSecretOptions

    @Option(help: "The post-logout redirect URI registered for the client (default: redirect_uri from --config, else the saved sign-in's, else com.example.webauth:/callback).")
    var redirectURI: String?

    @Option(help: ArgumentHelp("A configuration file, for its redirect_uri, proxy, no_proxy, ca_file and language (without it, the network keys of $XDG_CONFIG_HOME/webauth/config.json when there is one).", valueName: "file"))
    var config: String?

    @OptionGroup(title: "Network") var networkOptions: NetworkOptions

    @Flag(help: "Do not end the provider's session; only revoke and forget.")
    var local = false

    @OptionGroup(title: "Logout script") var scripting: PageScriptOptions
    @OptionGroup(title: "Presentation") var presentation: PresentationOptions

    func run() async throws {
        try await reportingFailures(ifInterrupted: "the sign-out was cancelled; the saved sign-in was kept", offering: PresentationOptions.offered, profile: profile.name) {
            let narrator = Narrator(verbose: presentation.verbose, quiet: true)
            if local, let removed = try await ProfileStore.removingUnreadable(name: profile.name, choice: profile.store) {
                narrator.warn("the saved sign-in in \(removed) could not be read and was removed; its refresh token was not revoked")
                try Self.forgetBrokerGrants(profile)
                print(JSONValue.object(["signed_out": .bool(true), "provider_session_ended": .bool(false),
                                        "refresh_token_revoked": .bool(false)]).description)
                return
            }
            let deadline = presentation.deadline()
            let saved: SavedSignIn
            do {
                saved = try await SavedSignIn(profile: profile, secret: secret, deadline: deadline) { [networkOptions, config] route throws(CommandFailure) in
                    let environment = CommandEnvironment.original
                    return try networkOptions.settings(from: ConfigurationFile.chosen(config, environment: environment), saved: route, environment: environment)
                }
            } catch let failure as CommandFailure where local && failure.status == .signInRequired {
                // No sign-in was saved, but a failed one may have left the provider's cookies: those go.
                guard try Self.removeLeftoverWebsiteData(profile) else { throw failure }
                try Self.forgetBrokerGrants(profile)
                print(JSONValue.object(["signed_out": .bool(true), "provider_session_ended": .bool(false),
                                        "refresh_token_revoked": .bool(false)]).description)
                return
            }
            let configuration = saved.state.configuration
            let network = saved.network
            // Usage errors before anything is revoked.
            let redirectURI = !local && configuration.endSessionEndpoint != nil ? try postLogoutRedirectURI(saved: saved.state.client?.redirectURI) : nil
            if redirectURI != nil {
                try network.prepareEngine(websiteData: profile.websiteData())
                try? await WebAuthEngine.prepareEnvironment(headless: presentation.headless)  // before other threads run (see EngineHeadStart)
            }
            // Headless, nobody can answer a question on the page: without a script, fail once it settles.
            var presentation = presentation
            var page = try pageRun(headless: presentation.headless, narrator: narrator, http: deadline.http(network))
            // What of the provider's part did not finish, and what kind of failure each was.
            var unfinished: [(reason: String, status: ExitStatus)] = []
            // The refresh token first: a provider's page that never sends the person back must not use up its time.
            var revoked = false
            if configuration.revocationEndpoint != nil, let refreshToken = saved.state.refreshToken {
                let endpoint = TokenEndpoint(configuration: configuration, clientID: saved.state.clientID, authentication: saved.authentication,
                                             http: deadline.http(network))
                do throws(OpenIDConnectError) {
                    try await endpoint.revoke(refreshToken, hint: "refresh_token")
                    revoked = true
                } catch {
                    unfinished.append(("the refresh token was not revoked: \(error)", ReportedFailure.status(of: error)))
                }
            }
            var endedAtProvider = false
            if let redirectURI {
                let client = OpenIDConnectClient(provider: .configuration(configuration), clientID: saved.state.clientID,
                                                 redirectURI: redirectURI, authentication: saved.authentication, http: deadline.http(network))
                let endSession = { [profile] (page: PageScriptRun, presentation: PresentationOptions) async throws in
                    _ = try await narrator.waiting(for: "the sign-out") {
                        try await client.signOut(saved.state, options: page.applied(to: network.applied(to: presentation.sessionOptions(websiteData: profile.websiteData(), within: deadline))),
                                                 script: { try await page($0) })
                    }
                }
                do {
                    do { try await endSession(page, presentation) } catch SignInError.session(.noDisplayForWindow) where !presentation.headless {
                        // No display (SSH, CI): the provider's page headless, as --headless would, rather than no sign-out there.
                        FileHandle.standardError.write(Data("No display here for the provider's sign-out page (DISPLAY and WAYLAND_DISPLAY are not set): ending its session headless (--headless).\n".utf8))
                        presentation.headless = true
                        page = try pageRun(headless: true, narrator: narrator, http: deadline.http(network))
                        try await endSession(page, presentation)
                    }
                    endedAtProvider = true
                } catch let error as SignInError {
                    if Task.isCancelled { throw CommandFailure(error) }  // interrupted: nothing more is done
                    var reason = Self.reason(error)
                    if let report = await page.report(of: error, requested: scripting.artifacts != nil) {
                        reason += FailureArtifacts.leave(report, in: scripting.artifacts)
                    }
                    unfinished.append((reason, ReportedFailure(error).status))
                }
            }
            if case .persistent(let directory) = profile.websiteData() {
                do { try await WebAuthEngine.clearWebsiteData(profileDirectory: directory) } catch {
                    throw CommandFailure(.localFailure, "could not delete the profile's cookies: \(error)")
                }
            }
            do throws(AuthStateStoreError) { try await saved.store.remove() } catch { throw CommandFailure(error) }
            try Self.forgetBrokerGrants(profile)
            print(JSONValue.object(["signed_out": .bool(true), "provider_session_ended": .bool(endedAtProvider),
                                    "refresh_token_revoked": .bool(revoked)]).description)
            guard unfinished.isEmpty else { throw Self.unfinished(unfinished) }
        }
    }

    /// The page's side of the sign-out: `--script`, else, `headless`, no steps (a page that asks
    /// something fails once it settles, as nobody can answer it).
    private func pageRun(headless: Bool, narrator: Narrator, http: any HTTPClient) throws(CommandFailure) -> PageScriptRun {
        PageScriptRun(script: try scripting.loginScript(orElse: headless ? LoginScript([]) : nil), narrator: narrator, verbose: presentation.verbose, http: http)
    }

    /// `--redirect-uri`, else `redirect_uri` in `--config`, else the one the sign-in was saved
    /// with, else the default.
    private func postLogoutRedirectURI(saved: String?) throws(CommandFailure) -> RedirectURI {
        var redirect = redirectURI ?? saved ?? "com.example.webauth:/callback"
        if redirectURI == nil, let config, let configured = try ConfigurationFile(commandPath: config).string("redirect_uri") { redirect = configured }
        do { return try RedirectURI(redirect) } catch {
            throw CommandFailure(.usage, "the redirect URI \(redirect) cannot be used: \(error)")
        }
    }

    /// The failure of a sign-out whose provider's part did not finish: a network error (4) when the
    /// provider could not be reached for any of it, with advice for a provider that is down; else 3.
    private static func unfinished(_ parts: [(reason: String, status: ExitStatus)]) -> CommandFailure {
        let message = "signed out here; the provider's sign-out did not finish: " + parts.map(\.reason).joined(separator: "; ")
        guard parts.allSatisfy({ $0.status == .networkError }) else {
            return CommandFailure(.providerError, message,
                                  advice: "The saved sign-in is gone; end the provider's session on its site, or give logout a --script that answers its page.")
        }
        return CommandFailure(.networkError, message,
                              advice: "The saved sign-in is gone; the provider could not be reached: end its session on its site once it answers.")
    }

    /// Why the provider's page did not send the person back, in sign-out words.
    private static func reason(_ error: SignInError) -> String {
        switch error {
        case .session(.closedByUser): "the window was closed before the provider sent you back"
        case .session(.pageSettled(let page, let after)): "its page stayed still for \(after) with no redirect back: \(page)"
        case .session(.timedOut(_, let url)): "no redirect back before --timeout (last page: \(url ?? "none"))"
        case .script(let failure): "the logout script failed: \(failure)"
        default: "\(error)"
        }
    }
}
