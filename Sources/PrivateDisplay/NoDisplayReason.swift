import Foundation

/// Why the engine had no display (`WebAuthenticationError.noDisplay`): none
/// was set and the private Xvfb it starts then could not be started, or GTK could not open the
/// display it was given.
public enum NoDisplayReason: Error, Sendable, Hashable, CustomStringConvertible {
    /// Neither `DISPLAY` nor `WAYLAND_DISPLAY` is set, and Xvfb is not installed (`apt-get install xvfb`).
    case xvfbNotInstalled
    /// The private folder for Xvfb's X authority file could not be made in `directory`; `code` is `errno`.
    case authorityFolderUnavailable(directory: String, code: Int32)
    /// Xvfb's X authority file `path` could not be written; `reason` is the system's.
    case authorityFileUnwritable(path: String, reason: String)
    /// The pipe on which Xvfb reports its display number could not be made; `code` is `errno`.
    case pipeUnavailable(code: Int32)
    /// Xvfb could not be started; `code` is `posix_spawn`'s error number.
    case xvfbNotStarted(code: Int32)
    /// Xvfb ended before it reported a display number; `reported` is what it wrote.
    case xvfbExited(reported: String)
    /// Three Xvfb servers in a row reported a display (the last `display`) whose socket file
    /// `/tmp/.X11-unix/X<n>` is missing, which sandboxed web processes need.
    case xvfbSocketMissing(display: String)
    /// GTK could not open the display `name` (`DISPLAY`, else `WAYLAND_DISPLAY`).
    case displayNotOpened(name: String)

    public var description: String {
        switch self {
        case .xvfbNotInstalled: "no DISPLAY or WAYLAND_DISPLAY is set and Xvfb is not installed (apt-get install xvfb)"
        case .authorityFolderUnavailable(let directory, let code):
            "cannot make a private folder for the X authority file in \(directory): \(String(cString: strerror(code)))"
        case .authorityFileUnwritable(let path, let reason): "cannot write the X authority file \(path): \(reason)"
        case .pipeUnavailable(let code): "pipe: \(String(cString: strerror(code)))"
        case .xvfbNotStarted(let code): "could not start Xvfb: \(String(cString: strerror(code)))"
        case .xvfbExited(let reported): "Xvfb did not start (it reported '\(reported)')"
        case .xvfbSocketMissing(let display): "Xvfb's display \(display) has no socket in /tmp/.X11-unix, three times in a row"
        case .displayNotOpened(let name): "GTK could not open display '\(name)'"
        }
    }
}
