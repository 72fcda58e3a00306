import Foundation
import OpenIDConnect
import SignInFiles

/// The authorization endpoint: request checks, the login pages (password, then a TOTP code for a
/// user who has a TOTP secret or a passkey for one who must; a passkey alone; or email and
/// one-time code), consent, and the response to the client's redirect URI.
extension OpenIDProvider {
    /// How many wrong codes an address may try before it must ask for a new one.
    public static let oneTimeCodeTries = 3

    func authorize(_ request: LocalHTTPRequest) -> LocalHTTPResponse {
        var query = Self.fields(request.query)
        let requestURI = query["request_uri"]
        if let requestURI {
            guard let pushed = pushedParameters(requestURI, clientID: query["client_id"]) else {
                return .html(LoginPage.message(title: "Invalid request_uri",
                                               "This sign-in link has expired or was already used. Start the sign-in again."), status: 400)
            }
            query = pushed
        }
        let asked = LanguagesAsked(acceptLanguage: request.header("Accept-Language"), uiLocales: query["ui_locales"])
        state.withLock { $0.languagesAsked.append(asked) }
        // Never redirect to a URI that is not registered for the client: show the error instead.
        guard let client = client(query["client_id"]) else {
            return .html(LoginPage.message(title: "Unknown client", "This application is not registered."), status: 400)
        }
        guard let redirect = query["redirect_uri"], client.redirectURIs.contains(where: { Self.redirect(redirect, matches: $0) }) else {
            return .html(LoginPage.message(title: "Invalid redirect URI", "The redirect URI is not registered for this application."), status: 400)
        }
        let respond = { (pairs: [(name: String, value: String)]) -> LocalHTTPResponse in
            if let requestURI { self.consumePushedRequest(requestURI) }  // one response per pushed request
            let issuer = self.has(.wrongIssuer) ? "https://attacker.example" : self.issuer
            return self.redirect(to: redirect, mode: query["response_mode"], pairs + [("state", query["state"] ?? ""), ("iss", issuer)])
        }
        if has(.disallowedUserAgent), Self.isEmbeddedView(request.header("User-Agent") ?? "") {
            return .html(LoginPage.message(title: "Error 403: disallowed_useragent",
                                           "This browser or app may not be secure. Use a secure browser to sign in."), status: 403)
        }
        if configuration.requirePushedAuthorizationRequests, requestURI == nil {
            return respond([("error", "invalid_request"), ("error_description", "this provider accepts pushed authorization requests only")])
        }
        guard query["response_type"] == "code" else { return respond([("error", "unsupported_response_type")]) }
        guard let challenge = query["code_challenge"], query["code_challenge_method"] == "S256" else {
            return respond([("error", "invalid_request"), ("error_description", "PKCE with S256 is required")])
        }
        let form = request.method == "POST" ? Self.fields(request.body) : [:]
        let step = loginStep(form: form, query: query, rawQuery: request.query, method: request.method)
        guard case .authenticated(let subject) = step else {
            if case .page(let page, let status) = step { return .html(page, status: status) }
            return .html(LoginPage.message(title: "Bad request", "The form is not one of this provider's."), status: 400)
        }
        let scope = query["scope"] ?? "openid"
        if form["step"] == "consent" {
            guard form["decision"] == "allow" else {
                return respond([("error", "access_denied"), ("error_description", "the person denied access")])
            }
        } else if client.requiresConsent {
            let interaction = Self.randomToken()
            state.withLock { $0.pendingConsents[interaction] = PendingConsent(subject: subject, query: query) }
            return .html(LoginPage.consent(clientID: client.clientID, scopes: scope.split(separator: " ").map(String.init),
                                           interaction: interaction))
        }
        if has(.deny) { return respond([("error", "access_denied"), ("error_description", "the person denied access")]) }
        let code = Self.randomToken()
        let grant = Grant(clientID: client.clientID, redirectURI: redirect, codeChallenge: challenge, nonce: query["nonce"],
                          subject: subject, scope: scope)
        state.withLock { $0.codes[code] = grant }
        return respond([("code", code)])
    }

    /// Exact match, except that a registered loopback `http` URI without a port matches any port
    /// (RFC 8252 §7.3: native apps listen on a port the system gives them).
    static func redirect(_ requested: String, matches registered: String) -> Bool {
        if requested == registered { return true }
        guard let asked = URLComponents(string: requested), let known = URLComponents(string: registered),
              known.scheme == "http", known.port == nil, asked.scheme == "http", asked.port != nil,
              ["127.0.0.1", "[::1]", "::1"].contains(known.host ?? "") else { return false }
        return asked.host == known.host && asked.path == known.path && asked.query == known.query
    }

    /// A web view embedded in an app, by the user agent's browser tokens (what user-agent sniffing providers look at).
    static func isEmbeddedView(_ userAgent: String) -> Bool {
        userAgent.contains("AppleWebKit") && !["Chrome/", "Firefox/"].contains(where: userAgent.contains)
    }

    /// Where a login stands after this request.
    enum LoginStep {
        /// Show a page.
        case page(String, status: Int)
        /// The person is known (and, for a consent decision, was already known).
        case authenticated(subject: String)
        /// A form this provider never sent.
        case invalid
    }

    func loginStep(form: [String: String], query: [String: String], rawQuery: String?, method: String) -> LoginStep {
        let preferred = DevProviderConfiguration.LoginMethod(rawValue: query["login_method"] ?? "") ?? configuration.loginMethod
        guard method == "POST" else {
            return .page(preferred == .password ? LoginPage.password(error: nil, passkey: passkeyOffer(query: rawQuery)) : LoginPage.email(error: nil),
                         status: 200)
        }
        switch form["step"] ?? "password" {
        case "password":
            guard let user = configuration.users.first(where: { $0.username == form["username"] && $0.password == form["password"] }) else {
                return .page(LoginPage.password(error: "Wrong user name or password.", passkey: passkeyOffer(query: rawQuery)), status: 401)
            }
            if user.passkeyRequired { return passkeySecondFactor(subject: user.subject) }
            guard user.totpSecret == nil else {
                let interaction = Self.randomToken()
                state.withLock { $0.pendingTOTP[interaction] = user.subject }
                return .page(LoginPage.totp(interaction: interaction, error: nil), status: 200)
            }
            return .authenticated(subject: user.subject)
        case "totp":
            return verifyTOTP(interaction: form["interaction"] ?? "", code: form["code"] ?? "")
        case "passkey", "passkey-second":
            return verifyPasskey(form: form, query: rawQuery, secondFactor: form["step"] == "passkey-second")
        case "choose-email":
            return .page(LoginPage.email(error: nil), status: 200)
        case "email", "resend":
            let address = form["email"] ?? ""
            guard configuration.users.contains(where: { $0.email.caseInsensitiveCompare(address) == .orderedSame }) else {
                return .page(LoginPage.email(error: "There is no account with that email address."), status: 404)
            }
            sendOneTimeCode(to: address)
            let notice = form["step"] == "resend" ? "A new code was sent to \(address)." : "We sent a code to \(address)."
            return .page(LoginPage.code(email: address, error: nil, notice: notice), status: 200)
        case "code":
            return verifyOneTimeCode(email: form["email"] ?? "", code: form["code"] ?? "")
        case "consent":
            guard let pending = state.withLock({ $0.pendingConsents.removeValue(forKey: form["interaction"] ?? "") }),
                  pending.query == query else {
                return .invalid
            }
            return .authenticated(subject: pending.subject)
        default:
            return .invalid
        }
    }

    private func sendOneTimeCode(to address: String) {
        var generator = SystemRandomNumberGenerator()
        let code = String(format: "%06d", Int.random(in: 0..<1_000_000, using: &generator))
        let key = address.lowercased()
        state.withLock { state in
            state.oneTimeCodes[key] = OneTimeCode(code: code, triesLeft: Self.oneTimeCodeTries)
            state.outbox.append(OutboxMessage(to: address, subject: "Your sign-in code is \(code)", code: code, sentAt: Date()))
        }
    }

    private func verifyOneTimeCode(email: String, code: String) -> LoginStep {
        let key = email.lowercased()
        let verdict: String? = state.withLock { state in
            guard var sent = state.oneTimeCodes[key] else { return "That code has expired. Send a new code." }
            if sent.code == code {
                state.oneTimeCodes[key] = nil
                return nil
            }
            sent.triesLeft -= 1
            state.oneTimeCodes[key] = sent.triesLeft > 0 ? sent : nil
            return sent.triesLeft > 0 ? "That code is not right. Try again." : "Too many wrong codes. Send a new code."
        }
        guard let error = verdict else {
            guard let user = configuration.users.first(where: { $0.email.caseInsensitiveCompare(email) == .orderedSame }) else {
                return .invalid
            }
            return .authenticated(subject: user.subject)
        }
        return .page(LoginPage.code(email: email, error: error, notice: nil), status: 401)
    }

    /// Checks a TOTP code against the current time step and the one before (a code typed as its
    /// step ended), refusing a step whose code was already used (RFC 6238 §5.2).
    private func verifyTOTP(interaction: String, code: String) -> LoginStep {
        guard let subject = state.withLock({ $0.pendingTOTP[interaction] }),
              let secret = user(subject: subject)?.totpSecret,
              let generator = try? TimeBasedOneTimePassword(base32Secret: secret) else {
            return .invalid
        }
        let now = generator.timeStep(at: Date())
        guard let step = [now, now - 1].first(where: { generator.code(forTimeStep: $0) == code }) else {
            return .page(LoginPage.totp(interaction: interaction, error: "That code is not right. Try again."), status: 401)
        }
        let fresh = state.withLock { state in
            guard state.lastTOTPSteps[subject].map({ $0 < step }) ?? true else { return false }
            state.lastTOTPSteps[subject] = step
            state.pendingTOTP[interaction] = nil
            return true
        }
        guard fresh else {
            return .page(LoginPage.totp(interaction: interaction, error: "That code was already used. Wait for the next one."), status: 401)
        }
        return .authenticated(subject: subject)
    }

    func redirect(to uri: String, mode: String?, _ pairs: [(name: String, value: String)]) -> LocalHTTPResponse {
        if mode == "form_post" {
            let inputs = pairs.map { "<input type='hidden' name='\(LoginPage.escape($0.name))' value='\(LoginPage.escape($0.value))'>" }
            return .html("<!DOCTYPE html><html><body onload='document.forms[0].submit()'><form method='post' action='\(LoginPage.escape(uri))'>\(inputs.joined())</form></body></html>")
        }
        return .redirect(to: uri + (uri.contains("?") ? "&" : "?") + FormURLEncoding.encode(pairs))
    }
}
