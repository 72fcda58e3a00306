import CWebKitGTK
import Foundation
import TestSupport
import OpenIDConnect
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// WebKit's web-process sandbox (bubblewrap).
    @Suite("The web process sandbox")
    struct Sandbox {
        /// Whether bubblewrap can make a web process's namespaces on this machine, asked independently of the engine.
        static func bubblewrapRuns() async -> Bool {
            let arguments = ["--unshare-pid", "--unshare-net", "--ro-bind", "/", "/", "--proc", "/proc", "true"]
            guard let child = try? ChildProcess("/usr/bin/bwrap", arguments, environment: ProcessInfo.processInfo.environment) else {
                return false
            }
            return await child.exitStatus() == 0
        }

        @Test("where bubblewrap runs, the sandbox is on and the page's web process runs inside bwrap; elsewhere the diagnostics say why it is off")
        func webProcessInsideBubblewrap() async throws {
            let site = try await TestSite.start()
            let session = try TestEngine.session(site.page(body: "<p>waiting</p>"), redirectURI: "com.example:/cb")
            let recorder = EventRecorder(session)
            let run = Task { try await session.start() }
            #expect(await recorder.firstLoadFinished() != nil)

            let sandbox = await WebAuthEngine.diagnostics.webProcessSandbox
            let webProcesses = WebProcesses.lineage(named: "WebKitWebProces")
            #expect(!webProcesses.isEmpty, "no web process found")
            if await Self.bubblewrapRuns() {
                #expect(sandbox == .on)
                for (pid, ancestors) in webProcesses {
                    #expect(ancestors.first == "bwrap", "web process \(pid) runs under \(ancestors), not bwrap")
                }
            } else {
                #expect(sandbox != .on, "the engine claims a sandbox that bubblewrap cannot make here")
            }
            session.cancel()
            _ = await run.result
        }
    }
}

extension EngineTests.Sandbox {
    @Test("a missing or failing bubblewrap turns the sandbox off, with what it said")
    func bubblewrapUnavailable() throws {
        #expect(WebProcessSandbox.probe(bubblewrap: "/nonexistent/bwrap") == .bubblewrapMissing)
        let failing = FileManager.default.temporaryDirectory.appendingPathComponent("bwrap-\(UUID().uuidString)")
        try "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n".write(to: failing, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: failing.path)
        defer { try? FileManager.default.removeItem(at: failing) }
        let outcome = WebProcessSandbox.probe(bubblewrap: failing.path)
        #expect(outcome == .bubblewrapFailed("bwrap: setting up uid map: Permission denied"))
        #expect(outcome.description.contains("sandbox is off"))
    }

    @Test("where WebKit would not use bubblewrap, or its sandboxed D-Bus proxy would abort the program or write into /, the sandbox is off and says why")
    func whereWebKitWouldNot() async throws {
        let stray = FileManager.default.temporaryDirectory.appendingPathComponent("flatpak-info-\(UUID().uuidString)")
        try Data().write(to: stray)
        defer { try? FileManager.default.removeItem(at: stray) }
        #expect(WebProcessSandbox.decide(environment: [:], flatpakInfo: stray.path) == .unsupportedPackaging(evidence: "\(stray.path) exists"))
        let snap = ["SNAP": "/snap/app/1", "SNAP_NAME": "app", "SNAP_REVISION": "1"]
        #expect(WebProcessSandbox.decide(environment: snap) == .unsupportedPackaging(evidence: "SNAP, SNAP_NAME and SNAP_REVISION are set"))
        for address in ["unix:path=/nonexistent", "unix:guid=0f,path=/bus"] {
            #expect(WebProcessSandbox.decide(environment: ["DBUS_SESSION_BUS_ADDRESS": address])
                == .sessionBusUnusable(address: address, reason: "its socket is directly in /"))
        }
        let missing = "unix:path=/nonexistent/bus,guid=0f"
        #expect(WebProcessSandbox.decide(environment: ["DBUS_SESSION_BUS_ADDRESS": missing])
            == .sessionBusUnusable(address: missing, reason: "the socket's directory /nonexistent does not exist"))
        let usual = "unix:path=\(FileManager.default.temporaryDirectory.path)/bus,guid=0f"
        if await Self.bubblewrapRuns() {
            #expect(WebProcessSandbox.decide(environment: ["DBUS_SESSION_BUS_ADDRESS": usual]) == .on)
        }
    }
}

extension EngineTests.Sandbox {
    @Test("a GTK application's own unsandboxed web process does not keep the engine's out of the sandbox (in a child process)")
    func hostWebProcessFirst() async {
        await #expect(processExitsWith: .success) {
            guard await EngineTests.Sandbox.bubblewrapRuns() else { return }
            let host = try GTKHostApplication()
            // The application shows a page of its own, in WebKit's default context, before any sign-in.
            await Task { @WebKitActor in
                let view = webkit_web_view_new()!
                g_object_ref_sink(UnsafeMutableRawPointer(view))
                webkit_web_view_load_html(cwk_web_view(view), "<p>the application's own page</p>", "about:blank")
            }.value
            let hostProcesses = WebProcesses.lineage(named: "WebKitWebProces")
            guard !hostProcesses.isEmpty, hostProcesses.allSatisfy({ $0.ancestors.isEmpty }) else { exit(2) }

            let site = try await TestSite.start()
            var options = WebAuthenticationOptions()
            options.presentation = .headless
            options.timeout = .seconds(60)
            let session = WebAuthenticationSession(url: site.page(body: "<p>waiting</p>"), redirectURI: try RedirectURI("com.example:/cb"),
                                                   options: options)
            let recorder = EventRecorder(session)
            let run = Task { try await session.start() }
            guard await recorder.firstLoadFinished() != nil else { exit(3) }
            guard await WebAuthEngine.diagnostics.webProcessSandbox == .on else { exit(4) }
            let lineage = WebProcesses.lineage(named: "WebKitWebProces")
            guard lineage.contains(where: { $0.ancestors.first == "bwrap" }) else {
                FileHandle.standardError.write(Data("web processes and their parents: \(lineage)\n".utf8))
                exit(5)
            }
            session.cancel()
            _ = await run.result
            host.quit()
        }
    }
}

extension EngineTests.Sandbox {
    @Test("with no D-Bus session, sandboxed web processes do not warn about a missing accessibility bus (in a child process)")
    func noAccessibilityBusWarning() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            unsetenv("DBUS_SESSION_BUS_ADDRESS")
            unsetenv("AT_SPI_BUS_ADDRESS")
            unsetenv("WEBKIT_A11Y_BUS_ADDRESS")
            let site = try await TestSite.start()
            let page = site.page(body: "<script>location.href = 'com.example:/cb?code=x'</script>")
            _ = try await TestEngine.session(page, redirectURI: "com.example:/cb").start()
        }
        let errors = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(!errors.contains("a11y bus"), "\(errors)")
    }
}
