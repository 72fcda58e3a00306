extension WebKitActor {
    /// Runs `operation` as ``WebKitActor``-isolated code, after checking that the caller is in
    /// fact on the GLib main context's thread (GTK signal handlers and GLib callbacks are, but
    /// the compiler cannot know it). Like `MainActor.assumeIsolated`; traps when wrong.
    static func assumeIsolated<T: Sendable>(_ operation: @WebKitActor () throws -> T) rethrows -> T {
        shared.preconditionIsolated()
        return try withoutActuallyEscaping(operation) { operation in
            try unsafeBitCast(operation, to: (() throws -> T).self)()
        }
    }
}
