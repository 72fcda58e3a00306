/// A user name and password read for a page's HTTP authentication; never logged or described.
struct HTTPCredential: Sendable, Hashable, CustomStringConvertible {
    let user: String
    let password: String
    /// Hosts beside the sign-in's own that may receive it (the login script's `secret_hosts`).
    var secretHosts: Set<String> = []

    var description: String { "credentials of \(user)" }
}
