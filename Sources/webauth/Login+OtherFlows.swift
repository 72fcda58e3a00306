import Foundation
import OpenIDConnect
import WebAuthSession

/// `webauth login` without the embedded view: the system browser, the device grant, and the
/// choice between them when there is no display for a window.
extension Login {
    /// No display for the window (SSH, a server): the device grant when the provider has a device
    /// authorization endpoint (discovered or given), else the system browser. Says which on stderr.
    func signInWithoutDisplay(_ settings: ClientSettings, scopes: [String], parameters: [String: String]) async throws -> AuthState {
        let configuration: ProviderConfiguration
        do { configuration = try await settings.client.providerConfiguration() } catch { throw CommandFailure(SignInError.openIDConnect(error)) }
        let reason = "No display here for a sign-in window (DISPLAY and WAYLAND_DISPLAY are not set, as over SSH)"
        if configuration.deviceAuthorizationEndpoint != nil || settings.deviceAuthorizationEndpoint != nil {
            FileHandle.standardError.write(Data("\(reason): signing in on another device instead (--flow device).\n".utf8))
            return try await deviceSignIn(settings, scopes: scopes, parameters: parameters)
        }
        FileHandle.standardError.write(Data("\(reason), and the provider has no device authorization endpoint: signing in in a browser instead (--flow browser).\n".utf8))
        do { return try await browserSignIn(settings, scopes: scopes, parameters: parameters).authState } catch { throw CommandFailure(error) }
    }

    /// The device authorization grant, within --timeout.
    func deviceSignIn(_ settings: ClientSettings, scopes: [String], parameters: [String: String]) async throws(CommandFailure) -> AuthState {
        try await DeviceSignIn(settings: settings, verbose: presentation.verbose, timeout: .seconds(presentation.timeout))
            .run(scopes: scopes, parameters: parameters)
    }

    /// The system browser with a loopback redirect; the URL is printed when no browser opens it.
    func browserSignIn(_ settings: ClientSettings, scopes: [String], parameters: [String: String]) async throws(SignInError) -> SignInResult {
        try await settings.client.signInWithSystemBrowser(scopes: scopes, additionalParameters: parameters,
                                                          browser: BrowserOpener.browser(command: browserCommand),
                                                          timeout: .seconds(presentation.timeout))
    }
}
