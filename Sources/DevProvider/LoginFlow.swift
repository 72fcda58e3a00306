import OpenIDConnect
import WebAuthSupport

/// The login pages that the authorization endpoint and the device verification page both show:
/// password (then a TOTP code for a user who has a TOTP secret, or a passkey for one who must), a
/// passkey alone, or email and one-time code; then, for a client that asks for it, consent.
final class LoginFlow: Sendable {
    /// A person who has proved who they are, waiting on the consent page.
    private struct PendingConsent: Sendable {
        let subject: String
        /// The request's parameters: consent is for that request only.
        let query: [String: String]
    }

    private let context: ProviderContext
    private let totp: TOTPFactor
    private let email: EmailCodes
    private let passkeys: PasskeyAccounts
    /// Consent pages shown and not yet answered, by interaction. Not a `Mutex`: see ``LockedState`` (server threads).
    private let consents = LockedState<[String: PendingConsent]>([:])

    init(context: ProviderContext, totp: TOTPFactor, email: EmailCodes, passkeys: PasskeyAccounts) {
        (self.context, self.totp, self.email, self.passkeys) = (context, totp, email, passkeys)
    }

    /// The step a request with `form` (its body, for a `POST`) takes a login of the request
    /// `query` (`rawQuery` as sent, for an `/authorize` page that offers passkeys; `nil` elsewhere).
    func step(form: [String: String], query: [String: String], rawQuery: String?, method: String) -> LoginProgress {
        let preferred = DevProviderConfiguration.LoginMethod(rawValue: query["login_method"] ?? "") ?? context.configuration.loginMethod
        guard method == "POST" else {
            return .page(preferred == .password ? LoginPage.password(error: nil, passkey: passkeys.offer(query: rawQuery)) : LoginPage.email(error: nil),
                         status: 200)
        }
        switch form["step"] ?? "password" {
        case "password":
            guard let user = context.user(username: form["username"], password: form["password"]) else {
                return .page(LoginPage.password(error: "Wrong user name or password.", passkey: passkeys.offer(query: rawQuery)), status: 401)
            }
            if user.passkeyRequired { return passkeys.secondFactor(subject: user.subject) }
            guard user.totpSecret == nil else { return totp.ask(subject: user.subject) }
            return .authenticated(subject: user.subject)
        case "totp":
            return totp.verify(interaction: form["interaction"] ?? "", code: form["code"] ?? "")
        case "passkey", "passkey-second":
            return passkeys.verify(form: form, query: rawQuery, secondFactor: form["step"] == "passkey-second")
        case "choose-email":
            return .page(LoginPage.email(error: nil), status: 200)
        case "email", "resend":
            let address = form["email"] ?? ""
            guard context.user(email: address) != nil else {
                return .page(LoginPage.email(error: "There is no account with that email address."), status: 404)
            }
            email.send(to: address)
            let notice = form["step"] == "resend" ? "A new code was sent to \(address)." : "We sent a code to \(address)."
            return .page(LoginPage.code(email: address, error: nil, notice: notice), status: 200)
        case "code":
            return verifyEmailCode(email: form["email"] ?? "", code: form["code"] ?? "")
        case "consent":
            guard let pending = consents.withLock({ $0.removeValue(forKey: form["interaction"] ?? "") }), pending.query == query else {
                return .invalid
            }
            return .authenticated(subject: pending.subject)
        default:
            return .invalid
        }
    }

    /// The consent page asking `subject` whether `clientID` may have `scope`, for the request
    /// `query`; its answer comes back as the `consent` step.
    func consentPage(subject: String, query: [String: String], clientID: String, scope: String) -> String {
        let interaction = ProviderForm.randomToken()
        consents.withLock { $0[interaction] = PendingConsent(subject: subject, query: query) }
        return LoginPage.consent(clientID: clientID, scopes: scope.split(separator: " ").map(String.init), interaction: interaction)
    }

    private func verifyEmailCode(email address: String, code: String) -> LoginProgress {
        if let error = email.refusal(of: code, for: address) {
            return .page(LoginPage.code(email: address, error: error, notice: nil), status: 401)
        }
        guard let user = context.user(email: address) else {
            return .invalid
        }
        return .authenticated(subject: user.subject)
    }
}
