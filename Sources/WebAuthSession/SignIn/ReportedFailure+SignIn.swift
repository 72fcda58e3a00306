import OpenIDConnect
import WebAuthExitStatus

/// The engine's failures as `ReportedFailure` classifies them: a sign-in's and its page's. The
/// protocol's and the store's are classified below, in WebAuthExitStatus, where the light
/// `webauth` (no WebKit) reports them too. Package access: exit statuses are `webauth`'s and its
/// broker's, not the engine's API.
extension ReportedFailure {
    /// A sign-in's failure: the page's, the protocol's, the login script's or the store's.
    package init(_ error: SignInError) {
        switch error {
        case .session(let session): self.init(Self.status(of: session), "sign-in failed: \(session)")
        case .openIDConnect(let protocolError):
            self.init(Self.status(of: protocolError), "sign-in failed: \(protocolError)", advice: Self.advice(of: protocolError))
        case .script(.captchaRequired(let kind, let text, _)):
            self.init(.needsPerson, "sign-in failed: \(SignInScriptError.captchaRequired(kind: kind, pageText: text, report: nil))")
        case .script(let failure): self.init(.scriptFailed, "sign-in failed: \(failure)")
        case .storage(let storage): self.init(.localFailure, "\(storage)")
        case .deviceAuthorization(.openIDConnect(let protocolError)): self.init(SignInError.openIDConnect(protocolError))
        case .deviceAuthorization(.cancelled): self.init(.cancelled, "\(error)")
        case .deviceAuthorization(.noEndpoint): self.init(.usage, "\(error)")
        case .deviceAuthorization: self.init(.providerError, "sign-in failed: \(error)")
        }
    }

    /// The kind of a sign-in page's failure.
    package static func status(of error: WebAuthenticationError) -> ExitStatus {
        switch error {
        case .closedByUser, .cancelled: .cancelled
        case .timedOut, .abandoned: .timedOut
        case .loadFailed, .tlsFailure: .networkError
        case .invalidCallback, .embeddedViewRefused, .providerErrorPage, .formActionBlocked: .providerError
        // Only a login script's page settles, and the page was still asking for something: the
        // script or the values it typed (a wrong password) are what to fix.
        case .pageSettled, .httpAuthenticationFailed: .scriptFailed
        case .passkeyRequested, .httpAuthenticationRefused: .needsPerson
        case .formPostNotCapturable, .invalidOption, .proxyAuthenticationFailed: .usage
        // What to present (a certificate, its PIN) is the caller's to give.
        case .clientCertificateRequested, .clientCertificatePINRefused: .usage
        // A host the sign-in may not send its secret to (secret_hosts lists the ones it may).
        case .secretRefused: .usage
        case .webProcessTerminated, .noDisplay, .noDisplayForWindow, .loopbackListenerUnavailable, .profileUnavailable, .alreadyStarted, .engineShutDown,
             .browserUnavailable, .passkeyCredentialsUnusable:
            .localFailure
        }
    }
}
