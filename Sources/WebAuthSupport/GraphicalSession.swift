/// Whether a process's environment names a display to open windows on.
package enum GraphicalSession {
    /// Whether `environment` has a non-empty `DISPLAY` (X11) or `WAYLAND_DISPLAY`.
    package static func hasDisplay(_ environment: [String: String]) -> Bool {
        environment["DISPLAY"]?.isEmpty == false || environment["WAYLAND_DISPLAY"]?.isEmpty == false
    }
}
