import Foundation
internal import CWebKitGTK

/// GTK on the engine's display: chosen and initialised once, on the main-context thread, on
/// first use. A failure (no display and no Xvfb) is kept and thrown to every caller.
@WebKitActor
enum GTKEnvironment {
    private static var outcome: Result<Void, WebAuthSessionError>?

    /// Makes sure GTK is initialised on a display.
    /// - Throws: ``WebAuthSessionError/noDisplay(_:)``, or ``WebAuthSessionError/engineShutDown``.
    static func ready() throws(WebAuthSessionError) {
        if EngineRuntime.shared.isShutDown { throw .engineShutDown }
        if outcome == nil { outcome = initialise() }
        try outcome!.get()
    }

    private static func initialise() -> Result<Void, WebAuthSessionError> {
        if gdk_display_get_default() != nil { return .success(()) }
        let runtime = EngineRuntime.shared
        let environment = ProcessInfo.processInfo.environment
        let hasDisplay = environment["DISPLAY"]?.isEmpty == false || environment["WAYLAND_DISPLAY"]?.isEmpty == false
        if runtime.configuration.display == .virtual || !hasDisplay {
            do {
                let size = runtime.configuration.virtualScreenSize
                let display = try VirtualDisplay(width: size.width, height: size.height)
                runtime.adopt(display)
                setenv("DISPLAY", display.name, 1)
                setenv("XAUTHORITY", display.authority.path, 1)  // GTK and WebKit's processes read it
                setenv("GDK_BACKEND", "x11", 1)
                unsetenv("WAYLAND_DISPLAY")
            } catch {
                return .failure(error)
            }
        }
        guard gtk_init_check(nil, nil) != 0 else {
            let name = getenv("DISPLAY").map { String(cString: $0) } ?? getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? ""
            return .failure(.noDisplay("GTK could not open display '\(name)'"))
        }
        return .success(())
    }
}
