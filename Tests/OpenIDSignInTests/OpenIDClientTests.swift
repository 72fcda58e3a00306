import DevProvider
import Foundation
import OpenIDConnect
import OpenIDSignIn
import Testing

/// ``OpenIDClient`` through the user-agent seam, with the test double against the real
/// development provider: the whole flow with no WebKit linked.
@Suite("OpenIDClient through an AuthorizationUserAgent")
struct OpenIDClientTests {
    static let redirect = "com.example.webauth:/callback"

    func provider(_ change: (inout DevProviderConfiguration) -> Void = { _ in }) async throws -> OpenIDProvider {
        var settings = DevProviderConfiguration()
        settings.clients = [.demo]
        change(&settings)
        return try await OpenIDProvider.start(configuration: settings)
    }

    func client(_ provider: OpenIDProvider, pushed: Bool = false) throws -> OpenIDClient {
        OpenIDClient(issuer: provider.issuer, clientID: "webauth-demo", redirectURI: try RedirectURI(Self.redirect),
                     pushAuthorizationRequests: pushed)
    }

    @Test("a sign-in goes from discovery to validated tokens; the agent is given the request's URL, redirect URI and state")
    func signIn() async throws {
        let provider = try await provider()
        let agent = DevProviderUserAgent()
        let result = try await client(provider).signIn(using: agent, scopes: ["openid", "offline_access"])
        #expect(result.idToken.subject == OpenIDProvider.User.alice.subject)
        #expect(result.tokens?.refreshToken != nil)
        let presented = try #require(agent.presentations.withLock { $0 }.first)
        #expect(presented.purpose == .authorization && presented.redirectURI.string == Self.redirect)
        #expect(presented.expectedState == result.request.state)
        #expect(presented.url.absoluteString.hasPrefix(provider.issuer + "/authorize?"))
    }

    @Test("with a pushed request the URL carries no state; the agent is given it, and the sign-in completes")
    func pushedRequest() async throws {
        let provider = try await provider { $0.requirePushedAuthorizationRequests = true }
        let agent = DevProviderUserAgent()
        let result = try await client(provider).signIn(using: agent)
        let presented = try #require(agent.presentations.withLock { $0 }.first)
        let names = URLComponents(url: presented.url, resolvingAgainstBaseURL: false)?.queryItems?.map(\.name)
        #expect(names == ["client_id", "request_uri"])
        #expect(presented.expectedState == result.request.state)
    }

    @Test("the agent's languages go out as ui_locales, unless the request has its own")
    func languages() async throws {
        let provider = try await provider()
        let client = try client(provider)
        _ = try await client.signIn(using: DevProviderUserAgent(languages: ["de-CH", "fr"]))
        _ = try await client.signIn(using: DevProviderUserAgent(languages: ["de-CH"]), additionalParameters: ["ui_locales": "it"])
        #expect(provider.languagesAsked.map(\.uiLocales) == ["de-CH fr", "it"])
    }

    @Test("the agent's failure is the sign-in's, typed, and nothing is exchanged")
    func agentFailure() async throws {
        let provider = try await provider()
        do {
            _ = try await client(provider).signIn(using: DevProviderUserAgent(failure: .cancelled))
            Issue.record("the sign-in went on without a redirect")
        } catch OpenIDClientError.userAgent(.cancelled) {}
    }

    @Test("a sign-out presents the end-session page, checks its state, and has the agent clear its data when asked")
    func signOut() async throws {
        let provider = try await provider()
        let client = try client(provider)
        let signedIn = try await client.signIn(using: DevProviderUserAgent()).authState
        let agent = DevProviderUserAgent()
        let signedOut = try await client.signOut(signedIn, using: agent, clearWebsiteData: true)
        #expect(signedOut.reauthenticationReason == .signedOut)
        #expect(agent.presentations.withLock { $0 }.map(\.purpose) == [.endSession])
        #expect(agent.clearings.withLock { $0 } == 1)
        #expect(provider.logoutHints == [signedIn.idToken?.rawValue ?? ""])
    }
}
