import DevProvider
import Foundation
import OpenIDConnect
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// A provider whose Content-Security-Policy `form-action` does not name the app's scheme: the
    /// browser stops its consent form's redirect to the redirect URI, silently (LemonLDAP::NG's
    /// default did). The page here is made for it, with the policy in a meta element.
    @Suite("A provider's form-action policy")
    struct FormActionPolicy {
        @Test("a form whose redirect to the custom scheme the page's form-action forbids ends the sign-in at once, naming the redirect URI")
        func blockedRedirect() async throws {
            let site = try await TestSite.start()
            let redirect = "com.example:/cb"
            let answer = site.route { _ in LocalHTTPResponse(status: 302, headers: ["Location": "\(redirect)?code=c0de&state=s7ate"]) }
            let start = site.page(title: "Consent", head: #"<meta http-equiv="Content-Security-Policy" content="form-action 'self'">"#,
                                  body: "<form method='post' action='\(answer.absoluteString)'><button id='allow'>Allow</button></form>")
            let session = try TestEngine.session(start, redirectURI: redirect)
            let script = Task { try await LoginScript([.click("#allow")]).run(in: session) }
            await #expect(throws: WebAuthenticationError.formActionBlocked(redirectURI: redirect, page: start.absoluteString)) {
                try await session.start()
            }
            _ = await script.result  // its click may or may not have returned before the page closed
            #expect(site.requests(to: answer.path).count == 1, "the form was posted; only its redirect was stopped")
        }
    }
}
