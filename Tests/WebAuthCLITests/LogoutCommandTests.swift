import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// `webauth logout` against a provider that asks "Do you want to sign out?" first.
@Suite("webauth logout (the built binary)", .startsWebKit(minutes: 3))
struct LogoutCommandTests {
    var webauth = WebAuthBinary()

    init() {
        webauth.environment["ALICE_PASSWORD"] = OpenIDProvider.User.alice.password
    }

    /// A provider that asks before it signs out, and a saved sign-in with a refresh token.
    func signedIn() async throws -> OpenIDProvider {
        let provider = try await OpenIDProvider.start()
        provider.faults = [.confirmSignOut]
        let login = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless",
                                       "--script", try webauth.file("login.yaml", LoginCommandTests.passwordScript)])
        #expect(login.status == 0, "stderr: \(login.stderr)")
        return provider
    }

    @Test("a logout script answers the provider's question: every part done, exit 0")
    func scriptAnswers() async throws {
        let provider = try await signedIn()
        let logout = try await webauth(["logout", "--headless", "--script", try webauth.file("logout.yaml", "steps: [{click: '#sign-out'}]")])
        #expect(logout.status == 0, "stderr: \(logout.stderr)")
        #expect(try JSONValue(parsing: logout.stdout) == .object(["signed_out": .bool(true), "provider_session_ended": .bool(true),
                                                                  "refresh_token_revoked": .bool(true)]))
        #expect(provider.logoutHints.count == 1)
        #expect(try await webauth(["status"]).status == 6)
    }

    @Test("headless without a script, the question settles: signed out here anyway, exit 3 naming the provider's page")
    func unansweredQuestion() async throws {
        _ = try await signedIn()
        let artifacts = webauth.home.appendingPathComponent("logout-artifacts")
        let logout = try await webauth(["logout", "--headless", "--settle-time", "2", "--artifacts", artifacts.path])
        #expect(logout.status == 3, "stderr: \(logout.stderr)")
        #expect(logout.stderr.hasPrefix("Error: signed out here; the provider's sign-out did not finish: its page stayed still for 2.0 seconds with no redirect back: 'Sign out?'"),
                "stderr: \(logout.stderr)")
        #expect(logout.stderr.contains("Do you want to sign out of the development provider?"), "the page's words: \(logout.stderr)")
        #expect(!logout.stderr.contains("sign-in failed") && logout.stderr.split(separator: "\n").count == 1, "stderr: \(logout.stderr)")
        #expect(try JSONValue(parsing: logout.stdout) == .object(["signed_out": .bool(true), "provider_session_ended": .bool(false),
                                                                  "refresh_token_revoked": .bool(true)]))
        let page = try JSONValue(parsing: String(contentsOf: artifacts.appendingPathComponent("page.json"), encoding: .utf8))
        #expect(page["title"] == .string("Sign out?"))
        let status = try await webauth(["status"])
        #expect(status.status == 6, "the local sign-in is gone whatever the provider's page did")
    }
}
