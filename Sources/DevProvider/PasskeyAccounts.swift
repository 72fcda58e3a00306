import Foundation
import OpenIDConnect
import WebAuthn
import WebAuthSupport

/// Passkeys at the development provider: registering one on the account page
/// (`/account`), and signing in with it, as the only factor (a discoverable passkey that verified
/// the user) or as the second, after the password, for a user who must. Every response is checked
/// with ``RelyingPartyVerifier``: the challenge this provider gave for that purpose, its origin,
/// its relying party ID (the issuer's host), presence, verification, signature and counter.
/// Passkeys need a relying party: the provider must run on `localhost` or a domain over https.
final class PasskeyAccounts: Sendable {
    private let context: ProviderContext
    /// Registered passkeys, the challenges given out, the account pages signed in to. Not a
    /// `Mutex`: see ``LockedState`` (server threads).
    private let passkeys = LockedState(ProviderPasskeys())

    init(context: ProviderContext) {
        self.context = context
    }

    /// The relying party ID (the issuer's host), when it can be one: not an IP address.
    private var relyingParty: String? {
        context.baseURL.host.flatMap { RelyingPartyID.isDomain($0) ? $0 : nil }
    }

    private var verifier: RelyingPartyVerifier? {
        relyingParty.map { RelyingPartyVerifier(relyingPartyID: $0, origins: [context.issuer]) }
    }

    /// How many passkeys `subject` has registered.
    func count(of subject: String) -> Int {
        passkeys.withLock { $0.credentialIDs(of: subject).count }
    }

    /// The login page's passkey sign-in, for a page at `/authorize?query` (empty when the issuer
    /// cannot be a relying party, or for another page: nil).
    func offer(query: String?) -> String {
        guard let relyingParty, let query else { return "" }
        let challenge = passkeys.withLock { $0.challenge(for: .signIn) }
        return PasskeyPage.signInOffer(challenge: challenge, relyingParty: relyingParty, returnTo: "/authorize?" + query)
    }

    /// The second-factor page for `subject` after the password, or an error page when they have no passkey yet.
    func secondFactor(subject: String, error: String? = nil) -> LoginProgress {
        guard let relyingParty else {
            return .page(LoginPage.message(title: "No passkeys here", "Passkeys need the provider on localhost or https."), status: 500)
        }
        let interaction = ProviderForm.randomToken()
        let (challenge, ids) = passkeys.withLock { ($0.challenge(for: .secondFactor(subject: subject, interaction: interaction)), $0.credentialIDs(of: subject)) }
        guard !ids.isEmpty else {
            return .page(LoginPage.password(error: "Your account needs a passkey: register one on your account page first."), status: 401)
        }
        return .page(PasskeyPage.secondFactor(interaction: interaction, challenge: challenge, relyingParty: relyingParty, credentialIDs: ids,
                                              error: error), status: error == nil ? 200 : 401)
    }

    /// A passkey sign-in (`step=passkey`: the only factor) or a second factor (`step=passkey-second`).
    func verify(form: [String: String], query: String?, secondFactor: Bool) -> LoginProgress {
        let failed = { (message: String) -> LoginProgress in
            .page(LoginPage.password(error: message, passkey: self.offer(query: query)), status: 401)
        }
        guard let verifier, let challenge = form["challenge"].flatMap(Base64URL.decode),
              let response = try? JSONValue(parsing: form["credential"] ?? ""), let id = RelyingPartyVerifier.credentialID(of: response) else {
            return failed("That passkey answer is not one this provider asked for.")
        }
        let (purpose, stored) = passkeys.withLock { ($0.challenges.removeValue(forKey: challenge), $0.credentials[id]) }
        let (subject, credential): (String, RelyingPartyVerifier.Credential)
        switch (purpose, stored) {
        case (.signIn?, let stored?) where !secondFactor:
            (subject, credential) = (stored.subject, stored.credential)
        case (.secondFactor(let owner, let interaction)?, let stored?) where secondFactor && interaction == form["interaction"]:
            guard stored.subject == owner else { return failed("That passkey belongs to another account.") }
            (subject, credential) = (owner, stored.credential)
        case (.some, nil):
            return failed("That passkey is not registered here.")
        default:
            return failed("That passkey answer is not one this provider asked for.")
        }
        do {
            let verified = try verifier.verifyAssertion(response, challenge: challenge, credential: credential,
                                                        requireUserVerification: !secondFactor)
            if let handle = verified.userHandle, handle != Data(subject.utf8) { return failed("That passkey belongs to another account.") }
            passkeys.withLock { $0.credentials[id]?.credential.signCount = verified.signCount }
            return .authenticated(subject: subject)
        } catch {
            return failed("The passkey could not be verified: \(error)")
        }
    }

    /// `/account`: sign in with the password, then see and register passkeys; `return_to` (a
    /// sign-in's `/authorize?...` page of this provider) is offered as the way back.
    func respond(to request: LocalHTTPRequest) -> LocalHTTPResponse {
        let form = request.method == "POST" ? ProviderForm.fields(request.body) : [:]
        let returnTo = (form["return_to"] ?? ProviderForm.fields(request.query)["return_to"]).flatMap { $0.hasPrefix("/authorize?") ? $0 : nil }
        guard let relyingParty, let verifier else {
            return .html(LoginPage.message(title: "No passkeys here", "Passkeys need the provider on localhost or https."), status: 500)
        }
        switch form["step"] {
        case "account":
            guard let user = context.user(username: form["username"], password: form["password"]) else {
                return .html(PasskeyPage.accountSignIn(returnTo: returnTo, error: "Wrong user name or password."), status: 401)
            }
            let interaction = ProviderForm.randomToken()
            passkeys.withLock { $0.accounts[interaction] = user.subject }
            return accountPage(user, interaction: interaction, relyingParty: relyingParty, returnTo: returnTo, notice: nil, error: nil)
        case "register":
            let interaction = form["interaction"] ?? ""
            guard let subject = passkeys.withLock({ $0.accounts[interaction] }), let user = context.user(subject: subject) else {
                return .html(PasskeyPage.accountSignIn(returnTo: returnTo, error: "Sign in to your account again."), status: 401)
            }
            let challenge = form["challenge"].flatMap(Base64URL.decode) ?? Data()
            let purpose = passkeys.withLock { $0.challenges.removeValue(forKey: challenge) }
            guard purpose == .registration(subject: subject, interaction: interaction),
                  let response = try? JSONValue(parsing: form["credential"] ?? "") else {
                return accountPage(user, interaction: interaction, relyingParty: relyingParty, returnTo: returnTo, notice: nil,
                                   error: "That passkey answer is not one this page asked for.")
            }
            do {
                let credential = try verifier.verifyRegistration(response, challenge: challenge, requireUserVerification: true)
                passkeys.withLock { $0.credentials[credential.id] = ProviderPasskeys.Stored(subject: subject, credential: credential) }
                return accountPage(user, interaction: interaction, relyingParty: relyingParty, returnTo: returnTo, notice: "Passkey registered.", error: nil)
            } catch {
                return accountPage(user, interaction: interaction, relyingParty: relyingParty, returnTo: returnTo, notice: nil,
                                   error: "The passkey could not be registered: \(error)")
            }
        default:
            return .html(PasskeyPage.accountSignIn(returnTo: returnTo, error: nil))
        }
    }

    private func accountPage(_ user: DevProviderConfiguration.User, interaction: String, relyingParty: String, returnTo: String?, notice: String?,
                             error: String?) -> LocalHTTPResponse {
        let (challenge, ids) = passkeys.withLock {
            ($0.challenge(for: .registration(subject: user.subject, interaction: interaction)), $0.credentialIDs(of: user.subject))
        }
        return .html(PasskeyPage.account(user, interaction: interaction, passkeys: ids, challenge: challenge, relyingParty: relyingParty,
                                         returnTo: returnTo, notice: notice, error: error), status: error == nil ? 200 : 400)
    }
}
