import Foundation
import OpenIDConnect
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

        /// Signs in headless with no display of the person's (the engine's private Xvfb by
        /// necessity) under `configuration`, then exits 0 if that Xvfb offers GLX exactly when
        /// `offersGL` (its extension list, from `xdpyinfo -queryExtensions`) and the engine asked
        /// WebKit for its accelerated backing store exactly then; else 2 to 5.
        static func signInWithoutDisplay(_ configuration: EngineConfiguration, offersGL: Bool) async throws -> Never {
            unsetenv("DISPLAY")
            unsetenv("WAYLAND_DISPLAY")
            try WebAuthEngine.configure(configuration)
            let site = try await TestSite.start()
            let page = site.page(body: "<script>location.href = 'com.example:/cb?code=x'</script>")
            var options = WebAuthenticationOptions()
            options.presentation = .headless
            guard (try? await WebAuthenticationSession(url: page, redirectURI: try RedirectURI("com.example:/cb"), options: options).start())?["code"] == "x"
            else { exit(2) }
            let environment = ProcessInfo.processInfo.environment
            guard let display = environment["DISPLAY"], let authority = environment["XAUTHORITY"] else { exit(3) }
            let query = try ChildProcess("/usr/bin/xdpyinfo", ["-queryExtensions"], environment: ["DISPLAY": display, "XAUTHORITY": authority], stdout: .pipe)
            let extensions = String(decoding: await query.outputToEnd(), as: UTF8.self)
            guard await query.exitStatus() == 0 else { exit(4) }
            let hasGLX = extensions.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("GLX") }
            let backingStoreOff = environment["WEBKIT_DISABLE_DMABUF_RENDERER"] == "1"
            exit(hasGLX == offersGL && backingStoreOff == !offersGL ? 0 : 5)
        }

        @Test("headless pages made fresh get a private Xvfb without GL, and WebKit does not probe for it: no warning (in a child process)")
        func withoutGL() async throws {
            let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                try await EngineTests.PrivateDisplay.signInWithoutDisplay(EngineConfiguration(), offersGL: false)
            }
            let errors = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
            #expect(!errors.contains("hardware acceleration"), "\(errors)")
        }

        @Test("with views kept ready (which keep GPU compositing), the private Xvfb offers GL (in a child process)")
        func withGLForKeptViews() async {
            await #expect(processExitsWith: .success) {
                try await EngineTests.PrivateDisplay.signInWithoutDisplay(EngineConfiguration(prewarmsWebViews: true), offersGL: true)
            }
        }

        @Test("prepareEnvironment makes every change to the environment: GTK's start and a sign-in after it change nothing (in a child process)")
        func environmentPreparedFirst() async {
            await #expect(processExitsWith: .success) {
                unsetenv("DISPLAY")
                unsetenv("WAYLAND_DISPLAY")
                try await WebAuthEngine.prepareEnvironment(headless: true)
                let prepared = ProcessInfo.processInfo.environment
                guard prepared["DISPLAY"] != nil, prepared["XAUTHORITY"] != nil else { exit(2) }
                let site = try await TestSite.start()
                let page = site.page(body: "<script>location.href = 'com.example:/cb?code=x'</script>")
                var options = WebAuthenticationOptions()
                options.presentation = .headless
                try await WebAuthEngine.prewarm()
                guard (try? await WebAuthenticationSession(url: page, redirectURI: try RedirectURI("com.example:/cb"), options: options).start())?["code"] == "x"
                else { exit(3) }
                exit(ProcessInfo.processInfo.environment == prepared ? 0 : 4)
            }
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
