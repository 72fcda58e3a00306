package import CGDBus

/// A GLib `GError` as a Swift error: its domain, code and message, copied out. Every `GError`
/// the engine receives is read and freed here, and every one it makes is made and freed here.
package struct GLibError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The error domain's name (`WebKitNetworkError`, `g-io-error-quark`...).
    package let domain: String
    /// The code within the domain.
    package let code: Int
    /// GLib's human-readable message.
    package let message: String
    private let quark: GQuark

    /// Copies `error`, which stays its owner's (the `GError` a signal hands its handlers).
    package init(_ error: UnsafePointer<GError>) {
        quark = error.pointee.domain
        domain = g_quark_to_string(quark).map { String(cString: $0) } ?? ""
        code = Int(error.pointee.code)
        message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }

    package var description: String { "\(message) (\(domain) \(code))" }

    /// Whether this is `code` of `domain` (a quark such as `webkit_network_error_quark()`).
    package func matches(_ domain: GQuark, _ code: Int) -> Bool {
        quark == domain && self.code == code
    }

    /// Calls `body` with a `GError **`: returns its result, or throws the error it set (the GLib
    /// convention: a function failed when it set one), freed here.
    package static func attempt<T>(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> T) throws(GLibError) -> T {
        var error: UnsafeMutablePointer<GError>?
        let result = withUnsafeMutablePointer(to: &error) { body($0) }
        if let failure = taking(error) { throw failure }
        return result
    }

    /// The error a C call set (`nil` for none), copied and freed: the caller owned it.
    package static func taking(_ error: UnsafeMutablePointer<GError>?) -> GLibError? {
        guard let error else { return nil }
        defer { g_error_free(error) }
        return GLibError(error)
    }

    /// Calls `body` with a new `GError` of `domain`, `code` and `message`, freed when it returns
    /// (for C functions that copy the error they are given).
    package static func withNew<R>(domain: GQuark, code: Int, message: String, _ body: (UnsafeMutablePointer<GError>) -> R) -> R {
        let error = g_error_new_literal(domain, gint(code), message)!
        defer { g_error_free(error) }
        return body(error)
    }
}
