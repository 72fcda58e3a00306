import Foundation
package import CSoup

/// Calls `body` with `strings` as a `NULL`-terminated C array (`gchar **`), or `NULL` when there
/// are none; the array lives until `body` returns.
package func withCStringList<Result>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?) -> Result) -> Result {
    var copies: [UnsafeMutablePointer<gchar>?] = strings.map { strdup($0) } + [nil]
    defer { copies.forEach { free($0) } }
    return copies.withUnsafeMutableBufferPointer { body(strings.isEmpty ? nil : $0.baseAddress) }
}

/// The same list as GLib's `const gchar * const *`.
package func constCStringList(_ list: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?) -> UnsafePointer<UnsafePointer<gchar>?>? {
    list.map { UnsafePointer(OpaquePointer($0)) }
}
