import Foundation
import Testing
import TestSupport

/// `webauth demo` with a window and a kiosk on a Wayland compositor (weston's headless backend),
/// in a child process: this test process's GTK is already on an Xvfb.
// Limits for a hang, not a speed: under the whole suite on two cores, each page of a demo on
// weston came after about 30 s (not understood yet), so the demos run with --timeout 600.
@Suite("webauth demo on Wayland (headless weston)", .startsWebKit(minutes: 12))
struct WaylandTests {
    let webauth = WebAuthBinary()

    /// Criticals GDK logs because headless weston has no seat (no keyboard, no pointer): raised
    /// inside GTK and WebKit (keymap, tooltips), never by the engine's calls.
    static let seatlessCriticals = [
        "gdk_seat_get_keyboard: assertion 'GDK_IS_SEAT (seat)' failed",
        "gdk_seat_get_pointer: assertion 'GDK_IS_SEAT (seat)' failed",
        "gdk_device_get_window_at_position_double: assertion 'GDK_IS_DEVICE (device)' failed",
    ]

    @Test("the popup and the kiosk sign in on Wayland with no DISPLAY; their screenshots are of weston's screen",
          arguments: ["window", "kiosk"])
    func signsIn(presentation: String) async throws {
        let weston = try await WaylandCompositor(width: 1024, height: 768)  // not Xvfb's 1280×1024: the kiosk's size shows where it ran
        let directory = webauth.home.appendingPathComponent("wayland-\(presentation)")
        let run = try await webauth(["demo", "--presentation", presentation, "--screenshots", directory.path, "--timeout", "600"],
                                    environment: weston.environment)
        await weston.stop()
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("allowing access on the consent page") && run.stderr.contains("signed out at the provider"))
        for name in ["1-login", "2-wrong-password", "3-consent"] {
            let size = try Self.pngSize(directory.appendingPathComponent(name + ".png"))
            if presentation == "kiosk" {
                #expect(size == (1024, 768), "\(name).png: the kiosk fills weston's output")
            } else {
                #expect(size.width > 400 && size.width < 1024 && size.height > 400, "\(name).png: \(size)")
            }
        }
        let criticals = run.stderr.split(separator: "\n").filter { $0.contains("-CRITICAL") }
        let unexpected = criticals.filter { line in !Self.seatlessCriticals.contains { line.hasSuffix($0) } }
        #expect(unexpected.isEmpty, "criticals not caused by the missing seat: \(unexpected)")
    }

    @Test("the popup's screenshot is the window, 480 pixels wide, without the shadow weston lets GTK draw around it")
    func popupScreenshotHasNoShadow() async throws {
        let weston = try await WaylandCompositor()
        let directory = webauth.home.appendingPathComponent("wayland-shadow")
        let run = try await webauth(["demo", "--presentation", "window", "--screenshots", directory.path, "--timeout", "600"], environment: weston.environment)
        await weston.stop()
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let size = try Self.pngSize(directory.appendingPathComponent("1-login.png"))
        #expect(size.width == 480, "the default window is 480 wide (with the shadow: \(size.width))")
        #expect(size.height > 640 && size.height < 700, "640 of page and a header bar, no shadow: \(size.height)")
    }

    /// A PNG's width and height, from its header.
    static func pngSize(_ file: URL) throws -> (width: Int, height: Int) {
        let bytes = [UInt8](try Data(contentsOf: file).prefix(24))
        try #require(bytes.count == 24 && bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(file.lastPathComponent) is a PNG")
        let number = { (offset: Int) in bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }
}
