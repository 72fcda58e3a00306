/// A main-frame load failure, as WebKit's `load-failed` signal reports it.
struct LoadFailure: Sendable, Hashable {
    let url: String
    let domain: String
    let code: Int
    let message: String
    /// The failure is the engine's own doing: a navigation the policy stopped ends as
    /// "cancelled" or "frame load interrupted by policy change".
    let causedByPolicy: Bool
}
