import Foundation
import Logging
import OpenIDConnect

extension KioskStation {
    /// Signs the next visitor in on their own phone: the device authorization grant (RFC 8628)
    /// with a full-screen QR code of its verification URI, and the URI and user code to type.
    /// The visitor's password never touches the kiosk. A code that expires or that the visitor
    /// denies is replaced by a new one; the first approval ends the wait. Each new code is an
    /// ``Event/phoneCodeShown(_:)``. A verification page on another site than the provider's is
    /// logged as a warning; one that is not https ends the wait with ``SignInError/deviceAuthorization(_:)``.
    /// - Parameters:
    ///   - message: what the screen says above the code.
    ///   - deviceAuthorizationEndpoint: for a provider whose discovery does not list it.
    /// - Returns: the visitor's sign-in; its ID token, if the provider issued one, is validated.
    /// - Throws: ``SignInError/deviceAuthorization(_:)``; ``SignInError/session(_:)`` when the screen cannot be shown.
    public func nextPhoneVisitor(message: String = "Sign in with your phone: scan the code, sign in, and allow this kiosk.",
                                 deviceAuthorizationEndpoint: URL? = nil) async throws(SignInError) -> AuthState {
        let screen: KioskPhoneScreen
        do { screen = try KioskPhoneScreen(message: message) } catch { throw .session(error) }
        defer { screen.close() }
        eventSink.yield(.startScreen(message: message))
        while true {
            do throws(DeviceAuthorizationError) {
                let states = try await client.deviceAuthorization(scopes: scopes, additionalParameters: additionalParameters,
                                                                  endpoint: deviceAuthorizationEndpoint)
                for try await state in states {
                    switch state {
                    case .codeIssued(let code):
                        if let issuer = try? await client.providerConfiguration().issuer, let warning = code.siteWarning(issuer: issuer) {
                            Logger(label: "WebAuthSession").warning("\(warning)")
                        }
                        screen.show(code)
                        eventSink.yield(.phoneCodeShown(code))
                    case .authorized(let signedIn):
                        eventSink.yield(.signedIn)
                        return signedIn
                    case .waiting, .slowedDown, .expired, .denied:
                        break  // after the last two the sequence ends, and a new code follows
                    }
                }
            } catch {
                throw .deviceAuthorization(error)
            }
        }
    }
}
