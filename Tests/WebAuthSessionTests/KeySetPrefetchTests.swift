import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// ``OpenIDConnectClient`` fetches the provider's key set while the page is shown, so that the
    /// sign-in's last step (validating the ID token) does not wait for a request.
    @Suite("The provider's key set, fetched while the page is shown")
    struct KeySetPrefetch {
        @Test("the JWKS is requested before anyone types and before the code is exchanged, once, and the ID token is validated with it")
        func fetchedWhilePageIsShown() async throws {
            let provider = try await OpenIDProvider.start()
            let client = OpenIDConnectClient(issuer: provider.issuer, clientID: "webauth-demo",
                                             redirectURI: try RedirectURI("com.example.webauth:/callback"))
            let script = LoginScript([.fill("#username", .literal("alice")), .fill("#password", .environment("PASSWORD")),
                                      .click("#sign-in")])
            let result = try await client.signIn(options: TestEngine.options(), script: { session in
                // Without the prefetch nothing asks for the key set before the redirect, and the
                // session runs out of time here.
                await provider.firstRequest(to: "/jwks")
                #expect(provider.requestCount("/token#authorization_code") == 0)
                try await script.run(in: session, environment: ["PASSWORD": OpenIDProvider.User.alice.password])
            })
            #expect(result.idToken.subject == OpenIDProvider.User.alice.subject)
            #expect(provider.requestCount("/jwks") == 1)
        }
    }
}
