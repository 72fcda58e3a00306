import OpenIDConnect
import OpenIDSignIn

extension SignInError {
    /// The engine client's error for what `OpenIDClient` threw, as ``OpenIDConnectClient``
    /// threw it before the flow moved there: the engine's and the system browser's failures as
    /// ``session(_:)``, a login script's as ``script(_:)``.
    init(_ error: OpenIDClientError) {
        switch error {
        case .openIDConnect(let error): self = .openIDConnect(error)
        case .storage(let error): self = .storage(error)
        case .userAgent(let error): self = Self(error)
        }
    }

    private init(_ error: AuthorizationUserAgentError) {
        switch error {
        case .agent(let error as WebAuthenticationError): self = .session(error)
        case .agent(let error as SignInScriptError): self = .script(error)
        case .agent(let error): self = .session(.invalidOption(.other(String(describing: error))))
        case .cancelled: self = .session(.cancelled)
        case .timedOut(let after, let lastURL): self = .session(.timedOut(after: after, lastURL: lastURL))
        case .browserUnavailable(let reason): self = .session(.browserUnavailable(reason))
        case .loopbackListenerUnavailable(let port, let message): self = .session(.loopbackListenerUnavailable(port: port, message: message))
        case .redirectPathNotAbsolute(let path): self = .session(.invalidOption(.redirectPathNotAbsolute(path: path)))
        case .redirectPathUnusable(let path, let error): self = .session(.invalidOption(.redirectPathUnusable(path: path, error: error)))
        case .redirectURINotPrepared: self = .session(.alreadyStarted)
        }
    }
}
