import ArgumentParser
import Foundation
import OpenIDConnect
import WebAuthSession

/// `webauth logout`: end the session at the provider, revoke the refresh token, forget the sign-in.
struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sign out: end the provider's session (RP-Initiated Logout), revoke the refresh token, delete the saved sign-in.",
        discussion: """
            The provider's end-session page is shown (headless with --headless) and its redirect \
            back to the post-logout redirect URI is caught. With --local, the provider is not \
            asked to end its session; the refresh token is still revoked when the provider has a \
            revocation endpoint. A --profile's cookies are deleted too. With --local, a saved sign-in \
            that cannot be read (damaged, or saved by a newer version) is removed all the same.
            """)

    @OptionGroup var profile: ProfileOptions
    @OptionGroup var secret: ClientSecretOptions

    @Option(help: "The post-logout redirect URI registered for the client (default: redirect_uri from --config, else the saved sign-in's, else com.example.webauth:/callback).")
    var redirectURI: String?

    @Option(help: ArgumentHelp("A configuration file, for its redirect_uri.", valueName: "file"))
    var config: String?

    @Flag(help: "Do not end the provider's session; only revoke and forget.")
    var local = false

    @OptionGroup(title: "Presentation") var presentation: PresentationOptions

    func run() async throws {
        try await reportingFailures(ifInterrupted: "the sign-out was cancelled; the saved sign-in was kept") {
            let narrator = Narrator(verbose: presentation.verbose, quiet: true)
            if local, let removed = try await ProfileStore.removingUnreadable(name: profile.name, choice: profile.store) {
                narrator.warn("the saved sign-in in \(removed) could not be read and was removed; its refresh token was not revoked")
                print(JSONValue.object(["signed_out": .bool(true), "provider_session_ended": .bool(false),
                                        "refresh_token_revoked": .bool(false)]).description)
                return
            }
            let saved = try await SavedSignIn(profile: profile, secret: secret)
            let configuration = saved.state.configuration
            var endedAtProvider = false
            if !local, configuration.endSessionEndpoint != nil {
                let redirect = try redirectURI ?? config.map { path throws(CommandFailure) in try ConfigurationFile(path: path) }?
                    .string("redirect_uri") ?? saved.state.client?.redirectURI ?? "com.example.webauth:/callback"
                let redirectURI: RedirectURI
                do { redirectURI = try RedirectURI(redirect) } catch {
                    throw CommandFailure(.usage, "the redirect URI \(redirect) cannot be used: \(error)")
                }
                let client = OpenIDConnectClient(provider: .configuration(configuration), clientID: saved.state.clientID,
                                                 redirectURI: redirectURI, authentication: saved.authentication)
                do {
                    _ = try await narrator.waiting(for: "the sign-out") {
                        try await client.signOut(saved.state, options: presentation.sessionOptions(websiteData: profile.websiteData()),
                                                 clearWebsiteData: true)
                    }
                } catch let error as SignInError {
                    throw CommandFailure(error)
                }
                endedAtProvider = true
            } else if case .persistent(let directory) = profile.websiteData() {
                do { try await WebAuthEngine.clearWebsiteData(profileDirectory: directory) } catch {
                    throw CommandFailure(.localFailure, "could not delete the profile's cookies: \(error)")
                }
            }
            var revoked = false
            do { revoked = try await saved.state.revokeRefreshToken(authentication: saved.authentication) } catch {
                narrator.warn("the refresh token could not be revoked: \(error)")
            }
            do throws(AuthStateStoreError) { try await saved.store.remove() } catch { throw CommandFailure(error) }
            print(JSONValue.object(["signed_out": .bool(true), "provider_session_ended": .bool(endedAtProvider),
                                    "refresh_token_revoked": .bool(revoked)]).description)
        }
    }
}
