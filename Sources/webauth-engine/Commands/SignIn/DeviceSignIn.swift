import Foundation
import OpenIDConnect
import WebAuthSession
import WebAuthCommandLine

/// `webauth login --flow device`: the device authorization grant (RFC 8628) at a terminal. The
/// verification URI and the user code go to stderr (stdout stays the JSON summary), with a QR
/// code of the complete URI when stderr is a terminal (none of them holds a control character:
/// ``DeviceCode`` removes them), and a warning when the page is on another site than the
/// provider's; it then polls until the person approves
/// on their phone or another computer, within `timeout`. The device code never appears.
struct DeviceSignIn {
    let client: OpenIDConnectClient
    /// The device authorization endpoint given by hand, when discovery does not list it.
    let endpoint: URL?
    let verbose: Bool
    let timeout: Duration

    /// Runs the grant to its end.
    /// - Throws: ``CommandFailure``: timed out (the code expired, or `timeout`), cancelled (denied),
    ///   the provider's or the network's errors.
    func run(scopes: [String], parameters: [String: String]) async throws(CommandFailure) -> AuthState {
        let states: DeviceAuthorizationStates
        do {
            states = try await client.deviceAuthorization(scopes: scopes, additionalParameters: parameters, endpoint: endpoint)
        } catch {
            throw Self.failure(error)
        }
        let timeout = self.timeout, verbose = self.verbose
        // Known by now: discovery ran for the endpoint.
        let issuer = try? await client.providerConfiguration().issuer
        do {
            return try await withThrowingTaskGroup(of: AuthState.self) { group in
                group.addTask { try await Self.follow(states, issuer: issuer, verbose: verbose) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    throw CommandFailure(.timedOut, "the code was not approved within \(timeout.components.seconds) s")
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(.cancelled, "the device sign-in was cancelled")
        }
    }

    /// Shows each state to the person until the grant ends; a verification page on another site
    /// than `issuer`'s gets one line of warning.
    private static func follow(_ states: DeviceAuthorizationStates, issuer: String?, verbose: Bool) async throws(CommandFailure) -> AuthState {
        var iterator = states.makeAsyncIterator()
        while true {
            let next: DeviceAuthorizationState?
            do { next = try await iterator.next() } catch { throw failure(error) }
            switch next {
            case .codeIssued(let code):
                if let warning = issuer.flatMap(code.siteWarning(issuer:)) { write(warning) }
                show(code)
            case .waiting: if verbose { write("waiting for the code to be approved…") }
            case .slowedDown(let interval): if verbose { write("the provider asked to be polled less often: every \(interval.components.seconds) s") }
            case .authorized(let state):
                if state.idToken == nil {
                    write("Signed in. The provider issued no ID token (an OAuth-only device grant): the summary has no subject or claims.")
                }
                return state
            case .expired: throw CommandFailure(.timedOut, "the code expired before it was approved; run the command again for a new one")
            case .denied: throw CommandFailure(.cancelled, "access was denied on the verification page")
            case nil: throw CommandFailure(.providerError, "the device sign-in ended without an answer")
            }
        }
    }

    /// Where to go and what to type; a QR code of the complete URI for a phone, at a terminal.
    private static func show(_ code: DeviceCode) {
        var lines = ["To sign in, open \(code.verificationURI.absoluteString) on your phone or another computer and enter the code",
                     "", "    \(code.userCode)", ""]
        if isatty(STDERR_FILENO) == 1, let qr = QRCode(code.uriForQRCode.absoluteString) {
            lines += ["or scan this QR code:", "", qr.terminalText, ""]
        }
        let minutes = max(code.expiresIn / 60, 1)
        lines.append("The code expires in \(minutes) minute\(minutes == 1 ? "" : "s"). Waiting for you to approve it…")
        write(lines.joined(separator: "\n"))
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// The command's failure for a grant that could not run.
    static func failure(_ error: DeviceAuthorizationError) -> CommandFailure {
        switch error {
        case .noEndpoint: CommandFailure(.usage, "\(error) (--device-authorization-endpoint, or device_authorization_endpoint in --config)")
        case .refused: CommandFailure(.providerError, "sign-in failed: \(error)")
        case .openIDConnect(let protocolError): CommandFailure(SignInError.openIDConnect(protocolError))
        case .cancelled: CommandFailure(.cancelled, "\(error)")
        case .insecureVerificationURI: CommandFailure(.providerError, "sign-in failed: \(error)")
        }
    }
}
