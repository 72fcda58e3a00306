import Foundation
import Testing
@testable import WebAuthSession

@Suite("Error messages")
struct ErrorMessageTests {
    @Test("a timeout that got what was left of a command's time says it to a tenth of a second")
    func timeoutRounded() {
        let error = WebAuthenticationError.timedOut(after: .nanoseconds(11_289_737_147), lastURL: nil)
        #expect(error.description == "no redirect within 11.3 seconds (last page: none)")
        #expect(WebAuthenticationError.timedOut(after: .seconds(5), lastURL: nil).description == "no redirect within 5.0 seconds (last page: none)")
    }
}

extension ErrorMessageTests {
    @Test("the typed reasons of noDisplay, invalidOption and browserUnavailable say what their strings said, to the byte")
    func typedReasons() throws {
        let cases: [(WebAuthenticationError, String)] = [
            (.noDisplay(.xvfbNotInstalled), "no display: no DISPLAY or WAYLAND_DISPLAY is set and Xvfb is not installed (apt-get install xvfb)"),
            (.noDisplay(.authorityFolderUnavailable(directory: "/run/user/1", code: EACCES)),
             "no display: cannot make a private folder for the X authority file in /run/user/1: Permission denied"),
            (.noDisplay(.authorityFileUnwritable(path: "/tmp/x/Xauthority", reason: "No space left on device")),
             "no display: cannot write the X authority file /tmp/x/Xauthority: No space left on device"),
            (.noDisplay(.pipeUnavailable(code: EMFILE)), "no display: pipe: Too many open files"),
            (.noDisplay(.xvfbNotStarted(code: ENOENT)), "no display: could not start Xvfb: No such file or directory"),
            (.noDisplay(.xvfbExited(reported: "")), "no display: Xvfb did not start (it reported '')"),
            (.noDisplay(.xvfbSocketMissing(display: ":7")), "no display: Xvfb's display :7 has no socket in /tmp/.X11-unix, three times in a row"),
            (.noDisplay(.displayNotOpened(name: ":9")), "no display: GTK could not open display ':9'"),
            (.invalidOption(.engineAlreadyStarted),
             "invalid option: the engine has already started with another configuration; configure it before the first session"),
            (.invalidOption(.negotiateSite(try #require(URL(string: "http://a.example/path")))),
             "invalid option: a site trusted for Negotiate must be written http(s)://host[:port], not 'http://a.example/path'"),
            (.invalidOption(.startURLScheme("file")), "invalid option: the start URL must be http or https, not 'file'"),
            (.invalidOption(.additionalHeader(name: "Bad Header")), "invalid option: additional header 'Bad Header' is not a valid HTTP header"),
            (.invalidOption(.parentWindowNotAWindow), "invalid option: parentWindow is not a GtkWindow"),
            (.invalidOption(.kioskAccentColor("blurple")),
             "invalid option: the kiosk's accent colour 'blurple' is not a colour: give a CSS colour such as #0b5cad or teal"),
            (.invalidOption(.kioskStyleSheet(message: "<data>:1:1")), "invalid option: the kiosk's style sheet did not load: <data>:1:1"),
            (.invalidOption(.kioskLogo(path: "/l.svg", message: "unknown format")),
             "invalid option: the kiosk's logo /l.svg cannot be shown (unknown format): give a PNG file"),
            (.invalidOption(.kioskLogo(path: "/l.svg", message: nil)), "invalid option: the kiosk's logo /l.svg cannot be shown: give a PNG file"),
            (.invalidOption(.redirectPathNotAbsolute(path: "cb")), "invalid option: the redirect path must start with /"),
            (.browserUnavailable(.emptyCommand), "the system browser could not be opened: the browser command is empty"),
            (.browserUnavailable(.noOpenerWorked([.exited(program: "xdg-open", status: 3), .notRun(program: "gio", message: "gone")])),
             "the system browser could not be opened: xdg-open exited with status 3; gio: gone"),
            (.browserUnavailable(.customOpenerFailed(message: "no screen")), "the system browser could not be opened: no screen"),
        ]
        for (error, message) in cases { #expect(error.description == message) }
    }
}
