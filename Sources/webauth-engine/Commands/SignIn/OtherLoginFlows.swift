import Foundation
import OpenIDConnect
import WebAuthSession
import WebAuthCommandLine

/// `webauth login` without the embedded view: the system browser, the device grant, and the
/// choice between them when there is no display for a window; all within `--timeout`.
struct OtherLoginFlows {
    let settings: ClientSettings
    /// The client whose requests end with the command's deadline.
    let client: OpenIDConnectClient
    let deadline: CommandDeadline
    let scopes: [String]
    let parameters: [String: String]
    /// `--browser-command`, if given.
    let browserCommand: String?
    let verbose: Bool

    /// No display for the window (SSH, a server), or no window wanted (`reason` says which): the
    /// device grant when the provider has a device authorization endpoint (discovered or given),
    /// else the system browser. Says which on stderr.
    func withoutDisplay(
        reason: String = "No display here for a sign-in window (DISPLAY and WAYLAND_DISPLAY are not set, as over SSH)"
    ) async throws -> AuthState {
        let configuration: ProviderConfiguration
        do { configuration = try await client.providerConfiguration() } catch { throw CommandFailure(SignInError.openIDConnect(error)) }
        if configuration.deviceAuthorizationEndpoint != nil || settings.deviceAuthorizationEndpoint != nil {
            FileHandle.standardError.write(Data("\(reason): signing in on another device instead (--flow device).\n".utf8))
            return try await device()
        }
        FileHandle.standardError.write(Data("\(reason), and the provider has no device authorization endpoint: signing in in a browser instead (--flow browser).\n".utf8))
        do { return try await browser().authState } catch { throw CommandFailure(error) }
    }

    /// The device authorization grant.
    func device() async throws(CommandFailure) -> AuthState {
        try await DeviceSignIn(client: client, endpoint: settings.deviceAuthorizationEndpoint, verbose: verbose,
                               timeout: max(deadline.remaining, .milliseconds(1)))
            .run(scopes: scopes, parameters: parameters)
    }

    /// The system browser with a loopback redirect; the URL is printed when no browser opens it.
    func browser() async throws(SignInError) -> SignInResult {
        try await client.signInWithSystemBrowser(scopes: scopes, additionalParameters: parameters,
                                                 browser: BrowserOpener.browser(command: browserCommand),
                                                 timeout: max(deadline.remaining, .milliseconds(1)))
    }
}
