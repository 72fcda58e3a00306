import DevProvider
import Foundation
import TestSupport
import Testing

/// Ctrl-C (SIGINT) and SIGTERM while `webauth login` shows its sign-in page: the command stops
/// cleanly, with its own exit status and one line, and leaves no process or scratch folder.
@Suite("webauth interrupted (the built binary)", .startsWebKit(minutes: 3))
struct InterruptionTests {
    let webauth = WebAuthBinary()

    @Test("SIGINT exits 130 and SIGTERM 143, with one line, no Xvfb or WebKit process and no scratch folder left",
          arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func interrupted(signal: Int32, status: Int32) async throws {
        let provider = try await OpenIDProvider.start()
        let scratch = webauth.home.appendingPathComponent("tmp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let script = try webauth.file("wait-\(UUID().uuidString).yaml", """
            step_timeout: 600
            steps:
              - wait_for: "#never"
            """)
        let child = try webauth.start(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless",
                                       "--verbose", "--timeout", "120", "--script", script],
                                      environment: ["TMPDIR": scratch.path, "XDG_RUNTIME_DIR": ""])
        var stderr = ""
        var chunks = child.stderr.makeAsyncIterator()
        while !stderr.contains("page from"), let chunk = await chunks.next() { stderr += chunk }
        try #require(stderr.contains("page from"), "the sign-in page never came up: \(stderr)")
        let helpers = ProcessTree.descendants(of: child.pid)
        #expect(helpers.values.contains("Xvfb") && helpers.values.contains { $0.hasPrefix("WebKitWebProces") },
                "the child runs its own display and web process: \(helpers)")

        kill(child.pid, signal)
        while let chunk = await chunks.next() { stderr += chunk }
        #expect(await child.status.value == status, "stderr: \(stderr)")
        let lines = stderr.split(separator: "\n")
        #expect(lines.last == "Interrupted: the sign-in was cancelled; nothing was saved.", "stderr: \(stderr)")
        #expect(lines.filter { $0.hasPrefix("Interrupted") || $0.hasPrefix("Error") }.count == 1, "one line says so: \(stderr)")
        let left = helpers.filter { ProcessTree.isRunning($0.key, name: $0.value) }
        #expect(left.isEmpty, "left running: \(left)")
        // Not the engine's webauthsession-* folders, nor a failed sign-in's artifacts: nothing.
        let scratchLeft = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
        #expect(scratchLeft.isEmpty, "left in TMPDIR: \(scratchLeft)")
        let status = try await webauth(["status"])
        #expect(status.status == 6, "nothing was saved; stderr: \(status.stderr)")
    }
}
