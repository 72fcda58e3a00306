import Foundation
import TestSupport
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// The engine's private Xvfb admits only the engine's own processes.
    @Suite("The private Xvfb")
    struct PrivateDisplay {
        /// Signs in once on a trivial page, so that the engine has started its display.
        static func startEngine() async throws {
            let site = try await TestSite.start()
            let page = site.page(body: "<script>location.href = 'com.example:/cb?code=x'</script>")
            _ = try await TestEngine.session(page, redirectURI: "com.example:/cb").start()
        }

        /// The exit status of `xdpyinfo` on `display` with `XAUTHORITY` set to `authority`.
        static func xdpyinfo(display: String, authority: String) async throws -> Int32 {
            var environment = ProcessInfo.processInfo.environment
            environment["DISPLAY"] = display
            environment["XAUTHORITY"] = authority
            return try await ChildProcess("xdpyinfo", [], environment: environment).exitStatus()
        }

        @Test("a client without the engine's cookie is refused; with it, it connects; the cookie's folder is 0700 and its file 0600")
        func cookie() async throws {
            try await Self.startEngine()
            let environment = ProcessInfo.processInfo.environment
            let display = try #require(environment["DISPLAY"])
            let authority = try #require(environment["XAUTHORITY"], "the engine set no XAUTHORITY for its Xvfb")
            let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-cookie-\(UUID().uuidString)")
            try Data().write(to: empty)
            defer { try? FileManager.default.removeItem(at: empty) }

            #expect(try await Self.xdpyinfo(display: display, authority: empty.path) != 0, "a client with no cookie reached the display")
            #expect(try await Self.xdpyinfo(display: display, authority: authority) == 0, "the engine's cookie was not accepted")
            let folder = URL(fileURLWithPath: authority).deletingLastPathComponent().path
            let folderMode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int
            let fileMode = try FileManager.default.attributesOfItem(atPath: authority)[.posixPermissions] as? Int
            #expect(folderMode == 0o700)
            #expect(fileMode == 0o600)
        }

        @Test("the cookie's folder is removed when the process exits (in a child process)")
        func removedAtExit() async throws {
            let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                try await EngineTests.PrivateDisplay.startEngine()
                guard let authority = ProcessInfo.processInfo.environment["XAUTHORITY"],
                      FileManager.default.fileExists(atPath: authority) else { exit(2) }
                FileHandle.standardOutput.write(Data((URL(fileURLWithPath: authority).deletingLastPathComponent().path + "\n").utf8))
            }
            let output = String(decoding: try #require(result).standardOutputContent, as: UTF8.self)
            let folder = try #require(output.split(separator: "\n").last.map(String.init))
            #expect(folder.contains("webauthsession-x11-"))
            #expect(!FileManager.default.fileExists(atPath: folder), "\(folder) is still there after the engine's process exited")
        }
    }
}
