import DevProvider
import Foundation
import WebAuthSession
import WebAuthCommandLine

/// `webauth demo --passkey`: alice registers a passkey on the development provider's
/// account page and signs in with it alone, both answered by a login script's virtual
/// authenticator; the provider verifies each answer as a relying party.
extension Demo {
    /// The account page (alice's password, Register a passkey), back to the sign-in, the passkey, then Allow.
    static func signInWithPasskey(_ session: WebAuthenticationSession, _ narrator: Narrator, _ camera: Camera) async throws {
        let passkey = VirtualAuthenticatorSettings()  // in memory: the credential lives as long as this sign-in
        let password = ["PASSWORD": OpenIDProvider.User.alice.password]
        try await session.waitForElement("#use-passkey")
        await camera.shoot(session, "1-login")
        narrator.say("registering a passkey for alice on the provider's account page")
        try await LoginScript([.click("#manage-passkeys"), .waitForURL(containing: "/account"), .fill("#username", .literal("alice")),
                               .fill("#password", .environment("PASSWORD")), .click("#sign-in"), .click("#register-passkey"),
                               .waitForText("Passkey registered.")], passkey: passkey)
            .run(in: session, environment: password, http: Demo.http)
        await camera.shoot(session, "2-passkey-registered")
        narrator.say("signing in with the passkey alone")
        try await LoginScript([.click("#back"), .click("#use-passkey")], passkey: passkey).run(in: session, http: Demo.http)
        try await allow(session, narrator, camera)
    }
}
