import DevProvider
import Foundation
import TestSupport
import Testing

/// The guides' shell blocks (docs/development-provider.md, docs/tools.md), run exactly as written:
/// documented commands must work.
@Suite("Guides: the curl walk-through, exec and env", .startsWebKit(minutes: 3))
struct ReadmeWalkthroughTests {
    let webauth = WebAuthBinary()

    @Test("discovery, login form, code, token exchange with PKCE, userinfo, refresh, revocation, logout: all with curl")
    func curlWalkthrough() async throws {
        let script = try webauth.file("walkthrough.sh", try Guides.block(after: "<!-- curl walk-through -->"))
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
        let script = try webauth.file("exec-env.sh", try Guides.block(after: "<!-- exec and env -->"))
        let binaries = WebAuthBinary.binary.deletingLastPathComponent().path
        let run = try await webauth.run(URL(fileURLWithPath: "/bin/bash"), ["-e", "-o", "pipefail", script],
                                        environment: ["PATH": binaries + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                                                      "ISSUER": provider.issuer])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.components(separatedBy: "\"email\":\"alice@example.com\"").count == 3, "stdout: \(run.stdout)")
    }
}
