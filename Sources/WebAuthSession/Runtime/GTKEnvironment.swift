import Foundation
internal import CWebKitGTK
import WebAuthSupport
import PrivateDisplay

/// GTK on the engine's display: chosen and initialised once, on the main-context thread, on
/// first use. A failure (no display and no Xvfb) is kept and thrown to every caller.
///
/// The one place the engine changes the process environment, once, before GTK starts: GTK reads
/// the display from it, and WebKit's web processes inherit it. On a private Xvfb that is
/// `DISPLAY`, `XAUTHORITY` and `GDK_BACKEND=x11`, with `WAYLAND_DISPLAY` removed,
/// `WEBKIT_DISABLE_DMABUF_RENDERER` when nothing there renders with GL (see ``rendersWithGL(_:)``), and
/// an empty GTK theme when no person can see the display (see ``unseenTheme(_:)``); with no
/// `XDG_RUNTIME_DIR`, the engine's scratch directory (see ``privateRuntimeDirectory(_:)``), and Mesa's shader
/// cache there too (``privateShaderCache(_:)``); with no D-Bus
/// session, an empty `WEBKIT_A11Y_BUS_ADDRESS` (see ``accessibilityBus(_:)``); with
/// ``EngineConfiguration/trustedNegotiateSites``, the network process's list of them (see
/// ``NegotiateTrust``); and GnuTLS's priorities without session tickets, so no sign-in resumes
/// another's TLS session (see ``TLSSessionTickets``). Everything else the engine does is decided by ``EngineConfiguration``
/// and the options passed in. A GTK application that initialised GTK itself keeps its
/// environment as it is, but for the sites trusted for Negotiate that it configured and the TLS
/// priorities (which reach WebKit's network process only if it starts after the engine: a host that
/// used WebKit before keeps its process's).
///
/// A private Xvfb is only for what no person needs to see (headless pages, scripts), unless the
/// configuration asks for it (``EngineConfiguration/Display/virtual``): a window or a kiosk with
/// no display of the person's fails with ``WebAuthenticationError/noDisplayForWindow``.
@WebKitActor
package enum GTKEnvironment {
    /// The environment's changes, made once (``settle(forPerson:)``).
    private static var settled: Result<Void, WebAuthenticationError>?
    /// GTK's start on the display, once.
    private static var outcome: Result<Void, WebAuthenticationError>?
    /// Whether GTK runs on a private Xvfb the engine started because there was no display.
    private static var onPrivateDisplayByNecessity = false

    /// Makes sure GTK is initialised on a display.
    /// - Parameter forPerson: the caller shows a window a person must see (a popup, a kiosk).
    /// - Throws: ``WebAuthenticationError/noDisplay(_:)-swift.enum.case``, ``WebAuthenticationError/noDisplayForWindow``,
    ///   or ``WebAuthenticationError/engineShutDown``.
    static func ready(forPerson: Bool = false) throws(WebAuthenticationError) {
        try settle(forPerson: forPerson)
        if outcome == nil { outcome = startGTK() }
        try outcome!.get()
    }

    /// Makes every change the engine makes to the process environment, once, starting the private
    /// Xvfb they name when there is no display (and the caller shows nothing a person must see).
    ///
    /// Separate from GTK's start so that a program can make them before other threads run: glibc's
    /// `setenv` may move the environment's array while `getenv` on another thread walks it (a
    /// resolver's options, a proxy, libsecret's bus name), which crashes that thread.
    /// - Throws: as ``ready(forPerson:)``.
    static func settle(forPerson: Bool = false) throws(WebAuthenticationError) {
        if EngineRuntime.shared.isShutDown { throw .engineShutDown }
        let virtualByChoice = EngineRuntime.shared.configuration.display == .virtual
        if forPerson, !virtualByChoice {
            // Not yet initialised and nothing to show a window on: fail before an Xvfb starts.
            if settled == nil, gdk_display_get_default() == nil, !hasDisplayVariable { throw .noDisplayForWindow }
            if onPrivateDisplayByNecessity { throw .noDisplayForWindow }
        }
        if settled == nil { settled = changeEnvironment() }
        try settled!.get()
    }

    private static var hasDisplayVariable: Bool {
        GraphicalSession.hasDisplay(ProcessInfo.processInfo.environment)
    }

    private static func changeEnvironment() -> Result<Void, WebAuthenticationError> {
        let runtime = EngineRuntime.shared
        let negotiate = NegotiateTrust.value(for: runtime.configuration.trustedNegotiateSites,
                                             existing: ProcessInfo.processInfo.environment[NegotiateTrust.variable])
        if let negotiate { setenv(NegotiateTrust.variable, negotiate, 1) }
        let environment = ProcessInfo.processInfo.environment
        setenv(TLSSessionTickets.variable, TLSSessionTickets.value(existing: environment[TLSSessionTickets.variable],
                                                                  systemDefault: TLSSessionTickets.systemDefault(environment)), 1)
        if gdk_display_get_default() != nil { return .success(()) }
        if runtime.configuration.display == .virtual || !hasDisplayVariable {
            let size = runtime.configuration.virtualScreenSize
            let screen = XvfbScreen(width: size.width, height: size.height, offersGL: rendersWithGL(runtime.configuration))
            let display: VirtualDisplay
            do throws(NoDisplayReason) { display = try VirtualDisplay(screen) } catch { return .failure(.noDisplay(error)) }
            do { try runtime.adopt(display) } catch { return .failure(error) }
            onPrivateDisplayByNecessity = runtime.configuration.display != .virtual
            setenv("DISPLAY", display.name, 1)
            setenv("XAUTHORITY", display.authority.path, 1)  // GTK and WebKit's processes read it
            setenv("GDK_BACKEND", "x11", 1)
            unsetenv("WAYLAND_DISPLAY")
            if !screen.offersGL { setenv(Self.noAcceleratedBackingStore, "1", 1) }
            if onPrivateDisplayByNecessity { unseenTheme(ProcessInfo.processInfo.environment) }
        }
        accessibilityBus(ProcessInfo.processInfo.environment)
        privateRuntimeDirectory(ProcessInfo.processInfo.environment)
        privateShaderCache(ProcessInfo.processInfo.environment)
        return .success(())
    }

    /// GTK's start on the display the environment names (a host application's GTK, already started, is kept).
    private static func startGTK() -> Result<Void, WebAuthenticationError> {
        if gdk_display_get_default() != nil { return .success(()) }
        guard gtk_init_check(nil, nil) != 0 else {
            let name = getenv("DISPLAY").map { String(cString: $0) } ?? getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? ""
            return .failure(.noDisplay(.displayNotOpened(name: name)))
        }
        return .success(())
    }

    /// WebKit's switch for the accelerated backing store (DMA-BUF buffers shown with GL): off, its
    /// UI process no longer asks GTK for a GL context at start (a probe that loads Mesa, and warns
    /// when the display has no GL).
    private static let noAcceleratedBackingStore = "WEBKIT_DISABLE_DMABUF_RENDERER"

    /// Whether web views on a private Xvfb may render with GL. Only views kept ready
    /// (``EngineConfiguration/prewarmsWebViews``) need it (WebKitGTK 2.50 leaks a thread in views
    /// kept without GPU compositing), and windows on a display a configuration asked for
    /// (``EngineConfiguration/Display/virtual``) keep what a person's display would give them. Every
    /// other view there is headless, made fresh and rendered without GPU compositing anyway
    /// (`PageConstruction`), so the engine's cold start does not pay for GL: Xvfb without GLX is
    /// ready in half the time, and this process does not load Mesa to probe for it.
    private static func rendersWithGL(_ configuration: EngineConfiguration) -> Bool {
        configuration.display == .virtual || configuration.prewarmsWebViews
    }

    /// The GTK theme of a private display no person sees: empty.
    nonisolated static let unseenThemeName = "WebAuthUnseen"

    /// On a private Xvfb started because there is no display, no GTK widget is ever seen (a window
    /// there is refused), yet GTK parses its whole Adwaita theme (thousands of rules, 25–35 ms
    /// here) when the first web view is made, on the loop thread, before the page's first load. An
    /// empty theme of the engine's own (`GTK_THEME`, found in the scratch directory through
    /// `GTK_DATA_PREFIX`, where GTK looks for themes last) spares it. Pages are drawn by WebKit,
    /// not by the theme; web processes, whose sandbox does not show the folder, fall back to
    /// Adwaita as before. A person's own `GTK_THEME` or `GTK_DATA_PREFIX` is left as it is.
    private static func unseenTheme(_ environment: [String: String]) {
        guard environment["GTK_THEME"] == nil, environment["GTK_DATA_PREFIX"] == nil,
              let scratch = try? EngineRuntime.shared.scratchDirectory() else { return }
        let folder = scratch + "/share/themes/\(unseenThemeName)/gtk-3.0"
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil,
              FileManager.default.createFile(atPath: folder + "/gtk.css", contents: Data("/* nobody sees this display */\n".utf8))
        else { return }
        setenv("GTK_DATA_PREFIX", scratch, 1)
        setenv("GTK_THEME", unseenThemeName, 1)
    }

    /// With no `XDG_RUNTIME_DIR`, GLib puts runtime files under `~/.cache` (WebKit's sandbox
    /// records, dconf's `user` file): they go to the engine's scratch directory instead, removed at
    /// shutdown. GLib reads the variable once, so a program that used it before keeps its answer;
    /// and a scratch directory too deep for the sockets WebKit's D-Bus proxy makes in it (a socket's
    /// path has at most 107 bytes) is not used for it.
    private static func privateRuntimeDirectory(_ environment: [String: String]) {
        guard (environment["XDG_RUNTIME_DIR"] ?? "").isEmpty, !WebProcessSandbox.namesMissingSessionBus(environment), let scratch = try? EngineRuntime.shared.scratchDirectory(),
              scratch.utf8.count <= 60 else { return }
        setenv("XDG_RUNTIME_DIR", scratch, 1)
    }

    /// Mesa keeps compiled shaders in `~/.cache/mesa_shader_cache` unless told otherwise: they go
    /// to the engine's scratch directory, removed at shutdown (a cache a person set keeps its place).
    private static func privateShaderCache(_ environment: [String: String]) {
        guard environment["MESA_SHADER_CACHE_DIR"] == nil, let scratch = try? EngineRuntime.shared.scratchDirectory() else { return }
        setenv("MESA_SHADER_CACHE_DIR", scratch, 1)
    }

    /// With no D-Bus session there is no accessibility bus, but a sandboxed web process still
    /// tries the proxy WebKit would have made for one, and warns at every launch ("Can't connect
    /// to a11y bus"). WebKit reads the bus from its web process's environment only, so an empty
    /// `WEBKIT_A11Y_BUS_ADDRESS` tells it there is none (unless the caller named a bus).
    private static func accessibilityBus(_ environment: [String: String]) {
        if WebProcessSandbox.hasNoSessionBus(environment), environment["AT_SPI_BUS_ADDRESS"] == nil,
           environment["WEBKIT_A11Y_BUS_ADDRESS"] == nil {
            setenv("WEBKIT_A11Y_BUS_ADDRESS", "", 1)
        }
    }
}

/// The changes a program that runs the engine makes to its own environment before GTK starts,
/// here so that the environment is changed in this one file. The library never calls them for a
/// host application: `webauth` does.
extension GTKEnvironment {
    /// Removes what opens GTK's inspector from `GTK_DEBUG` (see ``GTKDebugVariable``).
    package nonisolated static func removeInspector() {
        guard let value = ProcessInfo.processInfo.environment[GTKDebugVariable.name] else { return }
        if let kept = GTKDebugVariable.withoutInspector(value) { setenv(GTKDebugVariable.name, kept, 1) } else { unsetenv(GTKDebugVariable.name) }
    }
}
