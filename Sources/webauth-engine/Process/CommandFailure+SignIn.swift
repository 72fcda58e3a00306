import OpenIDConnect
import WebAuthCommandLine
import WebAuthExitStatus
import WebAuthSession

extension CommandFailure {
    /// A sign-in's failure, as ``ReportedFailure`` classifies it, with what only the command can
    /// add: its flags for an insecure endpoint, the device grant's, and the CA file options for a
    /// certificate the system does not trust (it may come from an internal CA).
    init(_ error: SignInError) {
        switch error {
        case .openIDConnect(.insecureEndpoint(let name, let url)):
            self.init(.usage, "sign-in failed: \(OpenIDConnectError.insecureEndpoint(name: name, url: url)) "
                + "(--allow-insecure-http, or allow_insecure_http in --config)")
        case .openIDConnect(.http(.tls)): self.init(ReportedFailure(error).with(advice: Self.caFileAdvice))
        case .deviceAuthorization(let device): self = DeviceSignIn.failure(device)
        default: self.init(ReportedFailure(error))
        }
    }
}
