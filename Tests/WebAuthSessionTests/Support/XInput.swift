import CWebKitGTK
import Foundation
import OpenIDConnect
import TestSupport
@testable import WebAuthSession

/// A person's input on the tests' private Xvfb: xdotool (XTEST) moves the pointer, clicks and
/// types as a mouse and a keyboard would, and `close_request.py` (python3-xlib) sends the close
/// request a window manager would. Each waits for its program to finish sending; what the
/// window then does is waited for on its events.
enum XInput {
    /// The environment that reaches the display the engine opened (DISPLAY, XAUTHORITY).
    private static var environment: [String: String] {
        let own = ProcessInfo.processInfo.environment
        return ["DISPLAY": own["DISPLAY"] ?? "", "XAUTHORITY": own["XAUTHORITY"] ?? "", "PATH": own["PATH"] ?? "/usr/bin:/bin"]
    }

    /// One person at one keyboard and mouse: tests run side by side on the same display, so one
    /// program runs at a time, and another test's click cannot land between one's focusing a
    /// window and typing into it.
    private static let person = Turns()

    /// Runs `program` to its end, in its turn; throws unless it exits 0. Returns its output.
    @discardableResult
    private static func run(_ program: String, _ arguments: [String]) async throws -> String {
        await person.take()
        let child: ChildProcess
        do { child = try ChildProcess(program, arguments, environment: environment, stdout: .pipe, stderr: .pipe) } catch {
            await person.give()
            throw error
        }
        let output = await child.outputToEnd()
        let status = await child.exitStatus()
        await person.give()
        let text = String(decoding: output, as: UTF8.self)
        guard status == 0 else { throw XInputFailure(program: program, status: status, output: text) }
        return text
    }

    /// Moves the pointer to the middle of the widget `find` returns (on the GTK thread) and clicks `button` (1 left, 3 right).
    static func click(button: Int = 1, on find: @escaping @WebKitActor @Sendable () -> UnsafeMutablePointer<GtkWidget>?) async throws {
        let point = await Task { @WebKitActor in
            find().map { widget in
                gdk_display_sync(gdk_display_get_default())  // the window's map and layout have reached the X server
                return center(of: widget)
            }
        }.value
        guard let point else { throw XInputFailure(program: "xdotool", status: -1, output: "no widget to click") }
        try await click(x: point.x, y: point.y, button: button)
    }

    /// Moves the pointer to the screen point (`x`, `y`) and clicks `button` there.
    static func click(x: Int, y: Int, button: Int = 1) async throws {
        try await run("xdotool", ["mousemove", "--sync", String(x), String(y), "click", String(button)])
    }

    /// Types `text` on the keyboard, key by key.
    static func type(_ text: String) async throws {
        try await run("xdotool", ["type", "--delay", "20", text])
    }

    /// Presses `key` (an X keysym name: "Return", "Tab") in the window that has the keyboard focus.
    static func key(_ key: String) async throws {
        try await run("xdotool", ["key", key])
    }

    /// The session's window, as X names it, for ``type(_:window:)`` and ``key(_:window:)``.
    static func window(of session: WebAuthenticationSession) async throws -> Window {
        try await window { session.page?.window }
    }

    /// The window of the widget `find` returns (on the GTK thread), as X names it. Not by a title:
    /// the engine puts each page's title on its window, and under load a title a test gave the
    /// window was replaced by the page's before xdotool searched for it, which then found nothing.
    static func window(of find: @escaping @WebKitActor @Sendable () -> UnsafeMutablePointer<GtkWidget>?) async throws -> Window {
        let id = await Task { @WebKitActor in find().map { cwk_x11_window_id($0) } ?? 0 }.value
        guard id != 0 else { throw XInputFailure(program: "xdotool", status: -1, output: "no X11 window to give the keyboard to") }
        return Window(id: id)
    }

    /// Gives the keyboard focus to `window` and types `text` there, key by key.
    static func type(_ text: String, window: Window) async throws {
        try await run("xdotool", ["windowfocus", "--sync", window.argument, "type", "--delay", "20", text])
    }

    /// Gives the keyboard focus to `window` and presses `key` (an X keysym name: "Return", "Tab").
    static func key(_ key: String, window: Window) async throws {
        try await run("xdotool", ["windowfocus", "--sync", window.argument, "key", key])
    }

    /// A toplevel window on the display, by its X11 window ID.
    struct Window: Sendable {
        let id: UInt
        /// The ID as xdotool takes it.
        var argument: String { String(id) }
    }

    /// The text of the X selection `name` (`clipboard`, `primary`) as another program pastes it
    /// (xclip); empty when it is empty or has no owner.
    static func selection(_ name: String) async throws -> String {
        let child = try ChildProcess("xclip", ["-o", "-selection", name], environment: environment, stdout: .pipe, stderr: .null)
        let output = await child.outputToEnd()
        _ = await child.exitStatus()  // 1 with no owner: nothing to paste either
        return String(decoding: output, as: UTF8.self)
    }

    /// Sends every window titled `title` a WM_DELETE_WINDOW close request; returns how many.
    static func requestClose(title: String) async throws -> Int {
        let script = Bundle.module.url(forResource: "close_request", withExtension: "py", subdirectory: "Fixtures")!
        // Debian's python3, where python3-xlib is installed (a pyenv python3 may come first in PATH).
        return Int(try await run("/usr/bin/python3", [script.path, title]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// The screen point in the middle of the page's element `selector`, scrolled into view first
    /// if it is not (as a person scrolls to a field below the window's edge).
    static func screenPoint(of selector: String, in session: WebAuthenticationSession) async throws -> (x: Int, y: Int) {
        let box = try await session.evaluateJavaScript("""
            (() => {
              const element = document.querySelector('\(selector)');
              element.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
              const r = element.getBoundingClientRect();
              return [r.x + r.width / 2, r.y + r.height / 2];
            })()
            """)
        guard case .array(let values) = box, values.count == 2, case .number(let x) = values[0], case .number(let y) = values[1] else {
            throw XInputFailure(program: "getBoundingClientRect", status: 0, output: "\(box)")
        }
        return await Task { @WebKitActor in
            let view = cwk_web_view_widget(session.page!.view!)!
            let zoom = webkit_web_view_get_zoom_level(session.page!.view!)
            return XInput.screenPoint(in: view, x: Int(x * zoom), y: Int(y * zoom))
        }.value
    }

    /// The screen point in the middle of `widget` (its window's origin plus its allocation).
    @WebKitActor
    static func center(of widget: UnsafeMutablePointer<GtkWidget>) -> (x: Int, y: Int) {
        screenPoint(in: widget, x: Int(gtk_widget_get_allocated_width(widget)) / 2, y: Int(gtk_widget_get_allocated_height(widget)) / 2)
    }

    /// The screen point at (`x`, `y`) inside `widget`.
    @WebKitActor
    static func screenPoint(in widget: UnsafeMutablePointer<GtkWidget>, x: Int, y: Int) -> (x: Int, y: Int) {
        let toplevel = gtk_widget_get_toplevel(widget)!
        var (inX, inY): (gint, gint) = (0, 0)
        gtk_widget_translate_coordinates(widget, toplevel, gint(x), gint(y), &inX, &inY)
        var (originX, originY): (gint, gint) = (0, 0)
        gdk_window_get_origin(gtk_widget_get_window(toplevel), &originX, &originY)
        return (Int(originX + inX), Int(originY + inY))
    }
}

/// xdotool or the close-request script failed.
struct XInputFailure: Error, CustomStringConvertible {
    let program: String
    let status: Int32
    let output: String
    var description: String { "\(program) exited \(status): \(output)" }
}

/// Turns taken one at a time, in the order asked for (an async lock: an actor alone would let
/// a second caller in at the first one's await).
private actor Turns {
    private var taken = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Returns once it is the caller's turn.
    func take() async {
        if taken { await withCheckedContinuation { waiting.append($0) } } else { taken = true }
    }

    /// Ends the caller's turn; the next waiting caller, if any, has it now.
    func give() {
        if waiting.isEmpty { taken = false } else { waiting.removeFirst().resume() }
    }
}
