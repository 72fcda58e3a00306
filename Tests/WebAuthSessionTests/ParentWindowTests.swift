import Foundation
import OpenIDConnect
import Testing
@testable import WebAuthSession

/// Another program's window as the parent, named as xdg-desktop-portal names windows (the
/// broker's `parent_window`): the identifiers it takes and refuses, and a window that is not there.
@Suite("Parent window identifiers")
struct ParentWindowTests {
    @Test("x11:XID and wayland:HANDLE name a window; an empty identifier names none")
    func identifiers() throws {
        #expect(try ParentWindow.portal("") == nil)
        #expect(try ParentWindow.portal("x11:3a00007")?.portalIdentifier == "x11:3a00007")
        #expect(try ParentWindow.portal("x11:0x3A00007")?.portalIdentifier == "x11:3a00007")
        #expect(try ParentWindow.portal("wayland:Uj4Ye2tf")?.portalIdentifier == "wayland:Uj4Ye2tf")
        // mutter's handles: 32 random printable characters, spaces and punctuation included.
        #expect(try ParentWindow.portal("wayland:%1 mi&Hw8B|e.p]st1N%t!w}\";,/Drrs")?.portalIdentifier == "wayland:%1 mi&Hw8B|e.p]st1N%t!w}\";,/Drrs")
    }

    @Test("what names no window this way is a typed error that does not repeat it", arguments: [
        ("x11", ParentWindowError.notAWindowIdentifier), ("mir:7", .unknownWindowSystem), ("x11:", .invalidX11WindowID),
        ("x11:zz", .invalidX11WindowID), ("x11:123456789", .invalidX11WindowID), ("x11:0", .invalidX11WindowID),
        ("wayland:", .invalidWaylandHandle), ("wayland:a\tb", .invalidWaylandHandle), ("wayland:é", .invalidWaylandHandle), ("x11:" + String(repeating: "1", count: 300), .notAWindowIdentifier),
    ])
    func refused(identifier: String, error: ParentWindowError) {
        #expect(throws: error) { try ParentWindow.portal(identifier) }
        #expect(!error.description.contains(identifier) || identifier.count < 4)
    }
}

extension EngineTests {
    /// The window part (on the engine's Xvfb): the popup's construction checks the parent.
    @Suite("Parent window of another program")
    struct ForeignParentWindow {
        @Test("an X11 window that is not there, and a Wayland handle on an X11 display, end the session as invalidOption before anything shows")
        func windowNotThere() async throws {
            for identifier in ["x11:1ffffff", "wayland:Uj4Ye2tf"] {
                var options = TestEngine.options(.window())
                options.parentWindow = try ParentWindow.portal(identifier)
                let session = try TestEngine.session(URL(string: "http://127.0.0.1:9/")!, redirectURI: "com.example:/cb", options: options)
                do {
                    _ = try await session.start()
                    Issue.record("\(identifier) was taken for a window")
                } catch {
                    guard case .invalidOption(let reason) = error else { Issue.record("\(identifier): \(error)"); continue }
                    #expect([InvalidOptionReason.parentWindowNotFound(identifier: identifier), .parentWindowNotImported(identifier: identifier)].contains(reason),
                            "\(reason)")
                }
            }
        }
    }
}
