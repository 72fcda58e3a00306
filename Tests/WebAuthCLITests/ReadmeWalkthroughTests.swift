import DevProvider
import Foundation
import TestSupport
import Testing

/// The README's shell blocks, run exactly as written: README commands must work.
@Suite("README: the curl walk-through, exec and env", .startsWebKit(minutes: 3))
struct ReadmeWalkthroughTests {
    let webauth = WebAuthBinary()

    /// The code block (shell, unless `language` says otherwise) that follows `marker` in README.md.
    static func block(after marker: String, language: String = "sh") throws -> String {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let afterMarker = try #require(text.range(of: marker)).upperBound
        let open = try #require(text.range(of: "```\(language)\n", range: afterMarker..<text.endIndex)).upperBound
        let close = try #require(text.range(of: "\n```", range: open..<text.endIndex)).lowerBound
        return String(text[open..<close])
    }

    @Test("discovery, login form, code, token exchange with PKCE, userinfo, refresh, revocation, logout: all with curl")
    func curlWalkthrough() async throws {
        let script = try webauth.file("walkthrough.sh", try Self.block(after: "<!-- curl walk-through -->"))
        let binaries = WebAuthBinary.binary.deletingLastPathComponent().path
        let run = try await webauth.run(URL(fileURLWithPath: "/bin/bash"), ["-e", "-o", "pipefail", script],
                                        environment: ["PATH": binaries + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.contains("\"token_endpoint\""))
        #expect(run.stdout.contains("com.example.webauth:/callback?code="))
        #expect(run.stdout.contains("\"email\":\"alice@example.com\""))
        #expect(run.stdout.contains("\n200\n"))
        #expect(run.stdout.hasSuffix("com.example.webauth:/callback?state=bye\n"))
    }

    @Test("exec and env: the token reaches curl both ways, and the API answers for alice")
    func execAndEnv() async throws {
        let provider = try await OpenIDProvider.start()
        let login = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless",
                                       "--script", try webauth.file("login.yaml", LoginCommandTests.passwordScript)],
                                      environment: ["ALICE_PASSWORD": OpenIDProvider.User.alice.password])
        try #require(login.status == 0, "stderr: \(login.stderr)")
        let script = try webauth.file("exec-env.sh", try Self.block(after: "<!-- exec and env -->"))
        let binaries = WebAuthBinary.binary.deletingLastPathComponent().path
        let run = try await webauth.run(URL(fileURLWithPath: "/bin/bash"), ["-e", "-o", "pipefail", script],
                                        environment: ["PATH": binaries + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                                                      "ISSUER": provider.issuer])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.components(separatedBy: "\"email\":\"alice@example.com\"").count == 3, "stdout: \(run.stdout)")
    }
}
