import Foundation
import PrivateDisplay

/// Process-wide engine settings. Set them with ``WebAuthEngine/configure(_:)`` before the
/// first sign-in; the defaults suit command-line tools, services, tests and GTK applications alike.
public struct EngineConfiguration: Sendable, Hashable {
    /// Who iterates the GLib main context that GTK and WebKit run on.
    public enum MainLoop: Sendable, Hashable {
        /// The host application's loop if GTK is already initialised when the engine starts
        /// (a GTK application), else a thread of the engine's own.
        case automatic
        /// The application runs a GTK or GLib main loop on the default main context; the engine
        /// only schedules work onto it (and calls `gtk_init` on it if nobody has).
        case host
        /// The engine iterates the default main context on a thread of its own. Only for
        /// programs that run no GLib loop on the default context themselves.
        case dedicatedThread
    }

    /// Which display the engine's windows go to.
    public enum Display: Sendable, Hashable {
        /// `DISPLAY`/`WAYLAND_DISPLAY` when set, else a private Xvfb started by the engine for
        /// headless pages only: a window or a kiosk then fails with ``WebAuthenticationError/noDisplayForWindow``
        /// (nobody could see it).
        case automatic
        /// Always a private Xvfb, even when a desktop is there (for test runs that must not
        /// show windows or take focus).
        case virtual
    }

    /// Who runs the main loop. Default: ``MainLoop/automatic``.
    public var mainLoop: MainLoop
    /// Where windows are shown. Default: ``Display/automatic``.
    public var display: Display
    /// Screen size of a private Xvfb, in pixels. Default: 1280×1024.
    public var virtualScreenSize: (width: Int, height: Int) {
        get { (virtualScreenWidth, virtualScreenHeight) }
        set { (virtualScreenWidth, virtualScreenHeight) = newValue }
    }

    /// Whether the engine keeps one ephemeral web view ready, its web process already running,
    /// so that an ephemeral session does not wait for a process to launch (a test harness that
    /// runs many sign-ins wants it). The first is made by ``WebAuthEngine/prewarm()`` or the
    /// first ephemeral session, and a new one each time a session takes it. It costs one idle
    /// web process, and such views keep GPU compositing even when headless. Default: `false`.
    public var prewarmsWebViews: Bool

    /// Whether a window session in a persistent profile leaves a web view ready in that profile,
    /// its web process already running, for the profile's next window (a sign-in broker's next
    /// sign-in of the same account). One waits at most, the last profile's; a headless session
    /// neither takes nor leaves one. It costs one idle web process. Default: `false`.
    public var prewarmsProfileWindows: Bool

    /// The sites whose pages may ask for Kerberos (`WWW-Authenticate: Negotiate`, SPNEGO) and get
    /// it from the user's own ticket (the credential cache `kinit` filled: `KRB5CCNAME`, else the
    /// default one); never a password from the engine. Each is `scheme://host[:port]`, `http` or
    /// `https` with no path: exactly that host (no subdomains) on that port (else the scheme's
    /// default). Empty (the default): libsoup's own rule, every `https` site (or the list in
    /// `SOUP_GSSAPI_TRUSTED_URIS` if the environment sets one). Naming any replaces that rule
    /// (name the `https` sites too); an environment's list is kept beside them. WebKit's network
    /// process reads it when it starts: in an application that showed a web page of its own
    /// before the first session, it applies from the network process's next start.
    public var trustedNegotiateSites: [URL]

    private var virtualScreenWidth: Int
    private var virtualScreenHeight: Int

    /// The defaults: automatic main loop, automatic display, no prewarmed web view, a 1280×1024
    /// virtual screen, libsoup's own sites for Negotiate.
    public init(mainLoop: MainLoop = .automatic, display: Display = .automatic, prewarmsWebViews: Bool = false,
                prewarmsProfileWindows: Bool = false, trustedNegotiateSites: [URL] = []) {
        self.mainLoop = mainLoop
        self.display = display
        self.prewarmsWebViews = prewarmsWebViews
        self.prewarmsProfileWindows = prewarmsProfileWindows
        self.trustedNegotiateSites = trustedNegotiateSites
        self.virtualScreenWidth = XvfbScreen.headlessDefault.width
        self.virtualScreenHeight = XvfbScreen.headlessDefault.height
    }
}
