/// A main-frame load failure, as WebKit's `load-failed` signal reports it.
struct LoadFailure: Sendable, Hashable {
    /// What WebKit's error says ended the load.
    enum Cause: Sendable, Hashable {
        /// The engine's navigation policy stopped it: WebKit reports "cancelled" or "frame load
        /// interrupted by policy change".
        case stoppedByPolicy
        /// The network process's request was cancelled (GIO's "Operation was cancelled"): a load
        /// the page has left, reported late (it went on to another address, or was loaded again
        /// after the CA file vouched for its certificate: ``SignInFlow/Event/loadSuperseded``);
        /// unexplained, and so a failure, for the load under way.
        case requestCancelled
        /// Anything else: a refused connection, a failed lookup, a reset.
        case failed
    }

    let url: String
    let domain: String
    let code: Int
    let message: String
    let cause: Cause
}
