/// The version of `webauth`: the one constant that `webauth --version` and the man page show.
enum WebAuthVersion {
    /// The current version.
    static let current = "0.1.0"
}
