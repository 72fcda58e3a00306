import OpenIDConnect
import WebAuthBrokerContract
import WebAuthExitStatus
import WebAuthSession

extension BrokerError {
    /// `failure` as a caller receives it: the error name of its exit status and its message, as
    /// `webauth` prints it.
    init(_ failure: ReportedFailure) {
        self.init(BrokerErrorName(exitStatus: failure.status.rawValue), failure.message)
    }

    /// A sign-in's or sign-out's failure.
    init(_ error: SignInError) { self.init(ReportedFailure(error)) }

    /// `SignIn`'s failure. With no display for the window, the engine's advice (the device grant,
    /// the system browser, headless) names what `SignIn` cannot be asked for, so the caller hears
    /// what the broker can do instead: a display, or a login script off screen.
    init(signingIn error: SignInError) {
        guard case .session(.noDisplayForWindow) = error else { self.init(error); return }
        self.init(.failed, "sign-in failed: the broker has no display to show the sign-in window on (it started without DISPLAY or "
            + "WAYLAND_DISPLAY): run it in the person's graphical session, or, for tests and CI, start it with --allow-scripts "
            + "and pass a login script (script_content or script_fd)")
    }

    /// A saved sign-in's failure to give fresh tokens.
    init(_ error: AuthStateError) { self.init(ReportedFailure(error)) }

    /// A store's failure.
    init(_ error: AuthStateStoreError) { self.init(ReportedFailure(error)) }
}
