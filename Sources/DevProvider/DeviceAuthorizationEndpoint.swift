import Foundation
import OpenIDConnect
import WebAuthSupport

/// The device authorization grant (RFC 8628): the device authorization endpoint, the
/// verification page a person opens on another device (enter the user code, sign in, allow or
/// deny), and the token endpoint's polls, with `authorization_pending`, `slow_down` for a poll
/// that comes before the interval, `expired_token` and `access_denied`.
final class DeviceAuthorizationEndpoint: Sendable {
    /// A device code's grant while it waits for the person.
    private struct DeviceGrant: Sendable {
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

    /// Why a poll gets no tokens: the OAuth error and its description.
    struct PollRefusal: Error {
        let code: String
        let description: String
    }

    private struct Grants: Sendable {
        /// Device grants by device code.
        var byDeviceCode: [String: DeviceGrant] = [:]
        /// Device codes by user code.
        var deviceCodes: [String: String] = [:]
        /// User codes by verification-page interaction.
        var interactions: [String: String] = [:]
    }

    /// The characters of user codes: consonants only (RFC 8628 §6.1), so no word is spelt by chance.
    static let userCodeAlphabet = Array("BCDFGHJKLMNPQRSTVWXZ")

    private let context: ProviderContext
    private let authenticator: ClientAuthenticator
    private let login: LoginFlow
    /// Not a `Mutex`: see ``LockedState`` (server threads).
    private let grants = LockedState(Grants())

    init(context: ProviderContext, authenticator: ClientAuthenticator, login: LoginFlow) {
        (self.context, self.authenticator, self.login) = (context, authenticator, login)
    }

    /// `POST /device_authorization`: a device code and a user code for a registered client.
    func authorize(_ request: LocalHTTPRequest) async -> LocalHTTPResponse {
        let form = ProviderForm.fields(request.body)
        guard let clientID = await authenticator.clientID(of: request, form: form) else {
            return .oauthError("invalid_client", "client authentication failed", status: 401)
        }
        let configuration = context.configuration
        let deviceCode = ProviderForm.randomToken()
        var generator = SystemRandomNumberGenerator()
        let letters = (0..<8).map { _ in Self.userCodeAlphabet.randomElement(using: &generator)! }
        let userCode = String(letters[0..<4]) + "-" + String(letters[4...])
        let lifetime = configuration.deviceCodeLifetime
        let grant = DeviceGrant(clientID: clientID, scope: form["scope"] ?? "openid", userCode: userCode,
                                expiresAt: .now + .seconds(lifetime), interval: configuration.deviceCodeInterval)
        grants.withLock { grants in
            grants.byDeviceCode[deviceCode] = grant
            grants.deviceCodes[userCode] = deviceCode
        }
        var verification = context.issuer + "/device"
        var shownUserCode = userCode
        if context.has(.insecureVerificationURI) { verification = "http://device.phish.invalid/device" }
        if context.has(.hostileVerificationURI) {
            verification = "https://device.phish.invalid/\u{1B}]0;owned\u{07}device\u{1B}[2J"
            shownUserCode = "\u{1B}[2J\u{1B}[H" + userCode + "\u{9B}8m\u{7F}\u{07}"
        }
        return .json(.object([
            "device_code": .string(deviceCode), "user_code": .string(shownUserCode),
            "verification_uri": .string(verification),
            "verification_uri_complete": .string(verification + "?" + FormURLEncoding.encode([("user_code", userCode)])),
            "expires_in": .number(Double(lifetime)), "interval": .number(Double(configuration.deviceCodeInterval)),
        ]), headers: ["Cache-Control": "no-store"])
    }

    /// `/device`: the page a person opens on their phone. First the user code (filled in from
    /// `verification_uri_complete`), then the usual login pages at `/device?interaction=ID`, then
    /// Allow or Deny for the device.
    func verify(_ request: LocalHTTPRequest) -> LocalHTTPResponse {
        let query = ProviderForm.fields(request.query)
        let form = request.method == "POST" ? ProviderForm.fields(request.body) : [:]
        guard let interaction = query["interaction"],
              let userCode = grants.withLock({ $0.interactions[interaction] }) else {
            return enterUserCode(form: form, query: query, method: request.method)
        }
        let step = login.step(form: form, query: query, rawQuery: nil, method: request.method)
        guard case .authenticated(let subject) = step else {
            if case .page(let page, let status) = step { return .html(page, status: status) }
            return .html(LoginPage.message(title: "Bad request", "The form is not one of this provider's."), status: 400)
        }
        if form["step"] == "consent" {
            let allowed = form["decision"] == "allow"
            let decided = grants.withLock { grants -> Bool in
                grants.interactions[interaction] = nil
                guard let deviceCode = grants.deviceCodes.removeValue(forKey: userCode), grants.byDeviceCode[deviceCode] != nil else { return false }
                grants.byDeviceCode[deviceCode]?.decision = allowed ? .approved(subject: subject) : .denied
                return true
            }
            guard decided else { return .html(LoginPage.message(title: "Code expired", "That code has expired. Start again on your device."), status: 410) }
            return .html(allowed ? LoginPage.message(title: "Device signed in", "You can go back to your device now.")
                                 : LoginPage.message(title: "Access denied", "The device was not signed in."))
        }
        guard let grant = deviceGrant(userCode: userCode) else {
            return .html(LoginPage.message(title: "Code expired", "That code has expired. Start again on your device."), status: 410)
        }
        return .html(login.consentPage(subject: subject, query: query, clientID: grant.clientID, scope: grant.scope))
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
        let interaction = ProviderForm.randomToken()
        grants.withLock { $0.interactions[interaction] = userCode }
        return .redirect(to: "/device?interaction=" + interaction)
    }

    /// The pending grant a user code belongs to, if it has not expired or been decided.
    private func deviceGrant(userCode: String) -> DeviceGrant? {
        grants.withLock { grants in
            guard let deviceCode = grants.deviceCodes[userCode], let grant = grants.byDeviceCode[deviceCode],
                  grant.expiresAt > .now, case .pending = grant.decision else { return nil }
            return grant
        }
    }

    /// The token endpoint's answer to a poll with `deviceCode` from `clientID`: the approved grant
    /// (used up), or why not yet or not at all.
    func poll(deviceCode: String, clientID: String) -> Result<Grant, PollRefusal> {
        let faults = context.faults
        return grants.withLock { grants in
            guard var grant = grants.byDeviceCode[deviceCode], grant.clientID == clientID else {
                return .failure(PollRefusal(code: "invalid_grant", description: "the device code is unknown, used, or not this client's"))
            }
            defer { if grants.byDeviceCode[deviceCode] != nil { grants.byDeviceCode[deviceCode] = grant } }
            let now = ContinuousClock.now
            let early = grant.lastPoll.map { now - $0 < .seconds(grant.interval) } ?? false
            let first = grant.lastPoll == nil
            grant.lastPoll = now
            if faults.contains(.expiredDeviceCode) || grant.expiresAt <= now {
                grants.byDeviceCode[deviceCode] = nil
                return .failure(PollRefusal(code: "expired_token", description: "the device code has expired"))
            }
            if early || (first && faults.contains(.slowDown)) {
                grant.interval += 5
                return .failure(PollRefusal(code: "slow_down", description: "poll every \(grant.interval) seconds"))
            }
            if faults.contains(.deny) { grant.decision = .denied }
            switch grant.decision {
            case .pending:
                return .failure(PollRefusal(code: "authorization_pending", description: "the person has not finished yet"))
            case .denied:
                grants.byDeviceCode[deviceCode] = nil
                return .failure(PollRefusal(code: "access_denied", description: "the person denied access"))
            case .approved(let subject):
                grants.byDeviceCode[deviceCode] = nil  // single use
                return .success(Grant(clientID: clientID, redirectURI: "", codeChallenge: "", nonce: nil, subject: subject, scope: grant.scope))
            }
        }
    }
}
