import Foundation

/// A secret file that group or others can read (``SecretFile``): `description` is one line that
/// names the file, its mode and the fix, `chmod 600 PATH`. A file on a read-only mount (a
/// Kubernetes or Docker secret, mode 0644 or 0444) gets no warning.
public struct SecretFileWarning: Sendable, Hashable, CustomStringConvertible {
    /// The file.
    public let path: String
    /// Its permission bits, such as `0o644`.
    public let mode: UInt32

    /// `PATH holds a secret and others can read it (mode 0644): chmod 600 PATH`.
    public var description: String {
        "\(path) holds a secret and others can read it (mode \(String(format: "%04o", mode))): chmod 600 \(path)"
    }
}
