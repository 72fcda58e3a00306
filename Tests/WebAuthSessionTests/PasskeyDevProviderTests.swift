import DevProvider
import Foundation
import OpenIDConnect
import Testing
import WebAuthn
@testable import WebAuthSession

extension EngineTests {
    /// The development provider's passkeys, signed in to by login scripts with
    /// the virtual authenticator: registering one on the account page, then signing in with it as
    /// the only factor, or as the second after the password. The provider runs on localhost: a
    /// relying party ID is a domain.
    @Suite("Passkeys at the development provider", .serialized)
    struct PasskeyDevProviderTests {
        static let erin = OpenIDProvider.User(username: "erin", password: "keyholder", subject: "248289761005", name: "Erin",
                                              email: "erin@example.com", passkeyRequired: true)

        static func provider() async throws -> OpenIDProvider {
            var configuration = DevProviderConfiguration()
            configuration.users = [.alice, erin]
            return try await OpenIDProvider.start(configuration: configuration, host: "localhost")
        }

        static func signIn(_ provider: OpenIDProvider, _ script: LoginScript, environment: [String: String] = [:]) async throws -> SignInResult {
            let client = OpenIDConnectClient(issuer: provider.issuer, clientID: "webauth-demo", redirectURI: try RedirectURI("com.example.webauth:/callback"))
            return try await client.signIn(options: TestEngine.options(), script: script.runner(environment: environment))
        }

        /// From the login page to the account page, a passkey registered for `user`, and back.
        static func registration(_ user: String, passwordVariable: String) -> [LoginStep] {
            [.click("#manage-passkeys"), .waitForURL(containing: "/account"), .fill("#username", .literal(user)), .fill("#password", .environment(passwordVariable)), .click("#sign-in"),
             .click("#register-passkey"), .waitForText("Passkey registered."), .click("#back")]
        }

        @Test("a passkey registered on the account page, then a sign-in with it alone; the next run signs in with the same file")
        func onlyFactor() async throws {
            let provider = try await Self.provider()
            let file = PasskeyPages.credentialsFile()
            defer { try? FileManager.default.removeItem(atPath: file); try? FileManager.default.removeItem(atPath: file + ".lock") }
            let passkey = VirtualAuthenticatorSettings(credentialsFile: file)
            let first = try await Self.signIn(provider, LoginScript(Self.registration("alice", passwordVariable: "PASSWORD") + [.click("#use-passkey")],
                                                                    passkey: passkey), environment: ["PASSWORD": "wonderland"])
            #expect(first.idToken.subject == OpenIDProvider.User.alice.subject)
            #expect(provider.passkeyCount(of: OpenIDProvider.User.alice.subject) == 1)
            let next = try await Self.signIn(provider, LoginScript([.click("#use-passkey")], passkey: passkey))
            #expect(next.idToken.subject == OpenIDProvider.User.alice.subject)
            #expect(try VirtualAuthenticator(settings: passkey).credentials.first?.signCount == 2)
            await provider.stop()
        }

        @Test("a user whose password is followed by a passkey: refused without one, signed in with one")
        func secondFactor() async throws {
            let provider = try await Self.provider()
            let passkey = VirtualAuthenticatorSettings(credentialsFile: PasskeyPages.credentialsFile())
            defer { try? FileManager.default.removeItem(atPath: passkey.credentialsFile!) }
            let password = [LoginStep.fill("#username", .literal("erin")), .fill("#password", .environment("PASSWORD")), .click("#sign-in")]
            await #expect { _ = try await Self.signIn(provider, LoginScript(password, settleTimeout: .milliseconds(500)),
                                                      environment: ["PASSWORD": "keyholder"]) } throws: { error in
                "\(error)".contains("Your account needs a passkey")
            }
            // The login page has a #use-passkey of its own: wait for the second factor's page before clicking.
            let result = try await Self.signIn(provider, LoginScript(Self.registration("erin", passwordVariable: "PASSWORD") + password
                                                                         + [.waitForText("Confirm with your passkey"), .click("#use-passkey")],
                                                                     passkey: passkey),
                                               environment: ["PASSWORD": "keyholder"])
            #expect(result.idToken.subject == Self.erin.subject)
            await provider.stop()
        }

        @Test("without a passkey configured, the login page says so and offers the password; the script that stays there exits as 'asks for a passkey'")
        func noPasskey() async throws {
            let provider = try await Self.provider()
            await #expect { _ = try await Self.signIn(provider, LoginScript([.click("#use-passkey")], settleTimeout: .milliseconds(500))) } throws: { error in
                guard case .session(.passkeyRequested(.get, "localhost", let text)) = error as? SignInError else { return false }
                return text == "Passkey sign-in failed (NotAllowedError). Try another way."
            }
            await provider.stop()
        }
    }
}
