import OpenIDConnect
import Testing
@testable import WebAuthSession

/// The policy alone, without WebKit: every rule, including the ones WebKit never lets a
/// page reach (javascript: as a navigation, file: from an http page).
@Suite("Navigation policy")
struct NavigationPolicyTests {
    func request(_ url: String, trigger: NavigationRequest.Trigger = .link, method: String? = nil,
                 redirect: Bool = false, newWindow: Bool = false) -> NavigationRequest {
        NavigationRequest(url: url, method: method, trigger: trigger, isRedirect: redirect, opensNewWindow: newWindow)
    }

    func policy(_ uri: String) throws -> NavigationPolicy { NavigationPolicy(redirectURI: try RedirectURI(uri)) }

    @Test("web pages load; everything else is refused with a reason", arguments: [
        ("https://login.example.com/authorize", NavigationVerdict.allow),
        ("http://127.0.0.1:8080/login", .allow),
        ("about:blank", .allow),
        ("data:text/html,<p>x</p>", .refuse(.dataURL)),
        ("blob:https://login.example.com/1234", .refuse(.dataURL)),
        ("file:///etc/passwd", .refuse(.fileURL)),
        ("javascript:alert(1)", .refuse(.javascriptURL)),
        ("mailto:a@example.com", .refuse(.unknownScheme)),
        ("otherapp:/cb?code=1", .refuse(.unknownScheme)),
        ("com.example:/cbx?code=1", .refuse(.redirectLookalike)),
    ])
    func verdicts(url: String, verdict: NavigationVerdict) throws {
        #expect(try policy("com.example:/cb").verdict(for: request(url)) == verdict)
    }

    @Test("new windows are refused unless they carry the response")
    func newWindows() throws {
        let policy = try policy("com.example:/cb")
        #expect(policy.verdict(for: request("https://help.example.com", newWindow: true)) == .refuse(.newWindow))
        #expect(policy.verdict(for: request("com.example:/cb?code=1", newWindow: true)) == .capture)
    }

    @Test("form posts go where their body can be read; redirects are captured from the URL")
    func formPosts() throws {
        let custom = try policy("com.example:/cb")
        #expect(custom.verdict(for: request("com.example:/cb", trigger: .formSubmission)) == .captureThroughSchemeHandler)
        #expect(custom.verdict(for: request("com.example:/cb?code=1", trigger: .formSubmission, redirect: true)) == .capture)
        let loopback = try policy("http://127.0.0.1:8123/cb")
        #expect(loopback.verdict(for: request("http://127.0.0.1:8123/cb", trigger: .formSubmission, method: "POST"))
            == .captureThroughLoopbackListener(port: 8123))
        #expect(loopback.verdict(for: request("http://127.0.0.1:8123/cb?code=1", trigger: .formSubmission, method: "GET")) == .capture)
        let https = try policy("https://app.example.com/cb")
        #expect(https.verdict(for: request("https://app.example.com/cb", trigger: .formSubmission, method: "POST"))
            == .fail(.formPostNotCapturable(url: "https://app.example.com/cb")))
    }
}
