/// Why the broker does not know who a caller is.
enum CallerIdentityError: Error, Sendable, Hashable {
    /// The caller's `/proc` entry cannot be read: the process has exited, or it is not dumpable.
    case unreadable(String)
    /// What the caller shows cannot be trusted to name it (a path it controls, a sandbox
    /// identity that does not hold up), so it is refused rather than taken for another app.
    case untrusted(String)
}
