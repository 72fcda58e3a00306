import DevProvider
import Foundation
import OpenIDConnect
import Testing

extension WebAuthBinary {
    /// A provider whose tokens live `lifetime` seconds, and alice signed in to it (`openid profile
    /// email offline_access`, the default profile) with the tokens of the sign-in. Needs
    /// `ALICE_PASSWORD` in ``environment``.
    func signedIn(lifetime: Int = 3600) async throws -> (provider: OpenIDProvider, tokens: JSONValue) {
        let provider = try await OpenIDProvider.start(accessTokenLifetime: lifetime)
        let login = try await self(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless", "--show-tokens",
                                    "--scope", "openid profile email offline_access",
                                    "--script", try file("login-\(UUID().uuidString).yaml", LoginCommandTests.passwordScript)])
        try #require(login.status == 0, "stderr: \(login.stderr)")
        return (provider, try JSONValue(parsing: login.stdout))
    }
}
