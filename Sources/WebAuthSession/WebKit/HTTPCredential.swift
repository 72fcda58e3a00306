/// A user name and password read for a page's HTTP authentication; never logged or described.
struct HTTPCredential: Sendable, Hashable, CustomStringConvertible {
    let user: String
    let password: String

    var description: String { "credentials of \(user)" }
}
