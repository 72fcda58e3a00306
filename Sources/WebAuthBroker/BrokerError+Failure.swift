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

    /// A saved sign-in's failure to give fresh tokens.
    init(_ error: AuthStateError) { self.init(ReportedFailure(error)) }

    /// A store's failure.
    init(_ error: AuthStateStoreError) { self.init(ReportedFailure(error)) }
}
