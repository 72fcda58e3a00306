/// The version of `webauth`: the one constant that `webauth --version` and the man page show.
package enum WebAuthVersion {
    /// The current version.
    package static let current = "0.1.0"
}
