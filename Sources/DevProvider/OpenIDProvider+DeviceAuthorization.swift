import Foundation
import OpenIDConnect

/// The device authorization grant (RFC 8628): the device authorization endpoint, the
/// verification page a person opens on another device (enter the user code, sign in, allow or
/// deny), and the token endpoint's polls, with `authorization_pending`, `slow_down` for a poll
/// that comes before the interval, `expired_token` and `access_denied`.
extension OpenIDProvider {
    /// A device code's grant while it waits for the person.
    struct DeviceGrant: Sendable {
        enum Decision: Sendable {
            case pending
            case approved(subject: String)
            case denied
        }

        let clientID: String
        let scope: String
        let userCode: String
        let expiresAt: ContinuousClock.Instant
        /// Seconds a client must wait between polls (5 more after each `slow_down`).
        var interval: Int
        var lastPoll: ContinuousClock.Instant?
        var decision: Decision = .pending
    }

    /// The characters of user codes: consonants only (RFC 8628 §6.1), so no word is spelt by chance.
    static let userCodeAlphabet = Array("BCDFGHJKLMNPQRSTVWXZ")

    /// `POST /device_authorization`: a device code and a user code for a registered client.
    func deviceAuthorization(_ request: LocalHTTPRequest) async -> LocalHTTPResponse {
        let form = Self.fields(request.body)
        guard let clientID = await authenticatedClient(request, form: form) else {
            return oauthError("invalid_client", "client authentication failed", status: 401)
        }
        let deviceCode = Self.randomToken()
        var generator = SystemRandomNumberGenerator()
        let letters = (0..<8).map { _ in Self.userCodeAlphabet.randomElement(using: &generator)! }
        let userCode = String(letters[0..<4]) + "-" + String(letters[4...])
        let lifetime = configuration.deviceCodeLifetime
        let grant = DeviceGrant(clientID: clientID, scope: form["scope"] ?? "openid", userCode: userCode,
                                expiresAt: .now + .seconds(lifetime), interval: configuration.deviceCodeInterval)
        state.withLock { state in
            state.deviceGrants[deviceCode] = grant
            state.userCodes[userCode] = deviceCode
        }
        var verification = issuer + "/device"
        var shownUserCode = userCode
        if faults.contains(.insecureVerificationURI) { verification = "http://device.phish.invalid/device" }
        if faults.contains(.hostileVerificationURI) {
            verification = "https://device.phish.invalid/\u{1B}]0;owned\u{07}device\u{1B}[2J"
            shownUserCode = "\u{1B}[2J\u{1B}[H" + userCode + "\u{9B}8m\u{7F}\u{07}"
        }
        return json(.object([
            "device_code": .string(deviceCode), "user_code": .string(shownUserCode),
            "verification_uri": .string(verification),
            "verification_uri_complete": .string(verification + "?" + FormURLEncoding.encode([("user_code", userCode)])),
            "expires_in": .number(Double(lifetime)), "interval": .number(Double(configuration.deviceCodeInterval)),
        ]), headers: ["Cache-Control": "no-store"])
    }

    /// `/device`: the page a person opens on their phone. First the user code (filled in from
    /// `verification_uri_complete`), then the usual login pages at `/device?interaction=ID`, then
    /// Allow or Deny for the device.
    func verifyDevice(_ request: LocalHTTPRequest) -> LocalHTTPResponse {
        let query = Self.fields(request.query)
        let form = request.method == "POST" ? Self.fields(request.body) : [:]
        guard let interaction = query["interaction"],
              let userCode = state.withLock({ $0.deviceInteractions[interaction] }) else {
            return enterUserCode(form: form, query: query, method: request.method)
        }
        let step = loginStep(form: form, query: query, rawQuery: nil, method: request.method)
        guard case .authenticated(let subject) = step else {
            if case .page(let page, let status) = step { return .html(page, status: status) }
            return .html(LoginPage.message(title: "Bad request", "The form is not one of this provider's."), status: 400)
        }
        if form["step"] == "consent" {
            let allowed = form["decision"] == "allow"
            let decided = state.withLock { state -> Bool in
                state.deviceInteractions[interaction] = nil
                guard let deviceCode = state.userCodes.removeValue(forKey: userCode), state.deviceGrants[deviceCode] != nil else { return false }
                state.deviceGrants[deviceCode]?.decision = allowed ? .approved(subject: subject) : .denied
                return true
            }
            guard decided else { return .html(LoginPage.message(title: "Code expired", "That code has expired. Start again on your device."), status: 410) }
            return .html(allowed ? LoginPage.message(title: "Device signed in", "You can go back to your device now.")
                                 : LoginPage.message(title: "Access denied", "The device was not signed in."))
        }
        guard let grant = deviceGrant(userCode: userCode) else {
            return .html(LoginPage.message(title: "Code expired", "That code has expired. Start again on your device."), status: 410)
        }
        let consent = Self.randomToken()
        state.withLock { $0.pendingConsents[consent] = PendingConsent(subject: subject, query: query) }
        return .html(LoginPage.consent(clientID: grant.clientID, scopes: grant.scope.split(separator: " ").map(String.init),
                                       interaction: consent))
    }

    /// The user-code page, and its answer: on to the login at `/device?interaction=ID`.
    private func enterUserCode(form: [String: String], query: [String: String], method: String) -> LocalHTTPResponse {
        guard method == "POST", form["step"] == "user_code" else {
            return .html(LoginPage.userCode(query["user_code"] ?? "", error: nil))
        }
        // People type codes in lower case and without the dash.
        let typed = (form["user_code"] ?? "").uppercased().filter { $0.isLetter }
        let userCode = typed.count == 8 ? String(typed.prefix(4)) + "-" + String(typed.suffix(4)) : typed
        guard deviceGrant(userCode: userCode) != nil else {
            return .html(LoginPage.userCode(form["user_code"] ?? "", error: "That code is not valid or has expired."), status: 400)
        }
        let interaction = Self.randomToken()
        state.withLock { $0.deviceInteractions[interaction] = userCode }
        return .redirect(to: "/device?interaction=" + interaction)
    }

    /// The pending grant a user code belongs to, if it has not expired or been decided.
    private func deviceGrant(userCode: String) -> DeviceGrant? {
        state.withLock { state in
            guard let deviceCode = state.userCodes[userCode], let grant = state.deviceGrants[deviceCode],
                  grant.expiresAt > .now, case .pending = grant.decision else { return nil }
            return grant
        }
    }

    /// The token endpoint's answer to a poll with `deviceCode` from `clientID`.
    func pollDeviceGrant(deviceCode: String, clientID: String) async -> LocalHTTPResponse {
        enum Answer { case error(String, String), tokens(Grant) }
        let faults = self.faults
        let answer: Answer = state.withLock { state in
            guard var grant = state.deviceGrants[deviceCode], grant.clientID == clientID else {
                return .error("invalid_grant", "the device code is unknown, used, or not this client's")
            }
            defer { if state.deviceGrants[deviceCode] != nil { state.deviceGrants[deviceCode] = grant } }
            let now = ContinuousClock.now
            let early = grant.lastPoll.map { now - $0 < .seconds(grant.interval) } ?? false
            let first = grant.lastPoll == nil
            grant.lastPoll = now
            if faults.contains(.expiredDeviceCode) || grant.expiresAt <= now {
                state.deviceGrants[deviceCode] = nil
                return .error("expired_token", "the device code has expired")
            }
            if early || (first && faults.contains(.slowDown)) {
                grant.interval += 5
                return .error("slow_down", "poll every \(grant.interval) seconds")
            }
            if faults.contains(.deny) { grant.decision = .denied }
            switch grant.decision {
            case .pending:
                return .error("authorization_pending", "the person has not finished yet")
            case .denied:
                state.deviceGrants[deviceCode] = nil
                return .error("access_denied", "the person denied access")
            case .approved(let subject):
                state.deviceGrants[deviceCode] = nil  // single use
                return .tokens(Grant(clientID: clientID, redirectURI: "", codeChallenge: "", nonce: nil, subject: subject, scope: grant.scope))
            }
        }
        switch answer {
        case .error(let code, let description): return oauthError(code, description)
        case .tokens(let grant): return await issueTokens(for: grant, includeNonce: false)
        }
    }
}
