import Foundation
import OpenIDConnect

/// The back channel: token endpoint (code exchange, refresh with rotation, narrower scopes and
/// resource indicators, device-code polls), userinfo, introspection, revocation, and the
/// end-session endpoint.
extension OpenIDProvider {
    func token(_ request: LocalHTTPRequest) async -> LocalHTTPResponse {
        let form = Self.fields(request.body)
        let grantType = form["grant_type"] ?? ""
        count("/token#" + grantType)
        if has(.serverError) { return LocalHTTPResponse(status: 500, headers: ["Content-Type": "text/plain"], body: "Internal Server Error") }
        if has(.hangingTokenEndpoint) {
            await held.hold()
            return LocalHTTPResponse(status: 503, body: "the provider stopped")
        }
        if has(.htmlErrorPage) {
            return .html(LoginPage.message(title: "502 Bad Gateway", "The upstream server is not answering."), status: 502)
        }
        guard let clientID = await authenticatedClient(request, form: form) else {
            return oauthError("invalid_client", "client authentication failed", status: 401)
        }
        if has(.invalidGrant) { return oauthError("invalid_grant", "the grant was revoked (injected fault)") }
        let proof = await checkDPoPProof(request, method: "POST", url: issuer + "/token")
        if let refusal = tokenEndpointRefusal(proof) { return refusal }
        let jkt: String? = if case .proven(let jkt) = proof { jkt } else { nil }
        var grant: Grant
        var requested = RequestedAccess()
        switch grantType {
        case "authorization_code":
            let found = state.withLock { $0.codes.removeValue(forKey: form["code"] ?? "") }  // single use
            guard let found, found.clientID == clientID, found.redirectURI == form["redirect_uri"],
                  let verifier = form["code_verifier"], PKCE.challenge(for: verifier) == found.codeChallenge else {
                return oauthError("invalid_grant", "the code is unknown, used, or not bound to this client, redirect URI and verifier")
            }
            grant = found
        case "refresh_token":
            let resources = Self.allFields(request.body).filter { $0.name == "resource" }.map(\.value)
            if let invalid = resources.first(where: { !Self.isResourceIndicator($0) }) {
                return oauthError("invalid_target", "the resource \(invalid) is not an absolute URI without a fragment")
            }
            let asked = form["scope"].map { Set($0.split(separator: " ").map(String.init)) }
            let found = state.withLock { state -> Result<Grant, RefreshRefusal> in
                guard let found = state.refreshTokens[form["refresh_token"] ?? ""], found.clientID == clientID else { return .failure(.unknown) }
                guard found.jkt == nil || found.jkt == jkt else { return .failure(.otherDPoPKey) }
                if let asked, !asked.isSubset(of: found.scope.split(separator: " ").map(String.init)) { return .failure(.widerScope) }
                state.refreshTokens[form["refresh_token"] ?? ""] = nil  // rotation
                return .success(found)
            }
            switch found {
            case .success(let found): grant = found
            case .failure(.unknown): return oauthError("invalid_grant", "the refresh token is unknown, used or revoked")
            case .failure(.otherDPoPKey): return oauthError("invalid_dpop_proof", "the refresh token is bound to another DPoP key")
            case .failure(.widerScope): return oauthError("invalid_scope", "a refresh may narrow the granted scope, never widen it")
            }
            requested = RequestedAccess(scope: asked.map { $0.sorted().joined(separator: " ") }, audiences: resources)
        case DeviceAuthorization.grantType:
            return await pollDeviceGrant(deviceCode: form["device_code"] ?? "", clientID: clientID)
        default:
            return oauthError("unsupported_grant_type", nil)
        }
        grant.jkt = jkt ?? grant.jkt
        return await issueTokens(for: grant, includeNonce: grantType == "authorization_code", requested)
    }

    /// Why a refresh token is not honoured.
    enum RefreshRefusal: Error { case unknown, otherDPoPKey, widerScope }

    /// What a refresh asked the access token to be, instead of the grant's scope and the client as audience.
    struct RequestedAccess {
        var scope: String?
        var audiences: [String] = []
    }

    /// RFC 8707 §2: a resource is an absolute URI with no fragment.
    static func isResourceIndicator(_ value: String) -> Bool {
        guard let components = URLComponents(string: value) else { return false }
        return components.scheme != nil && components.fragment == nil
    }

    /// Every field of a form body, repeated names included, in order.
    static func allFields(_ encoded: String) -> [(name: String, value: String)] {
        (try? FormURLEncoding.decode(encoded)) ?? []
    }

    /// The client the request authenticates as (RFC 6749 §2.3, OpenID Connect Core §9): a
    /// confidential client by HTTP Basic, `client_secret` in the body or a `client_secret_jwt`
    /// assertion, a `private_key_jwt` one by its signed assertion (for `audiences`), a public one by
    /// `client_id` alone; a client registered for one method (``DevProviderConfiguration/Client/tokenEndpointAuthMethod``) by that one only.
    func authenticatedClient(_ request: LocalHTTPRequest, form: [String: String],
                             audiences: Set<String>? = nil) async -> String? {
        var clientID = form["client_id"]
        var secret = form["client_secret"]
        var method = secret == nil ? "none" : "client_secret_post"
        if let basic = request.header("Authorization"), basic.hasPrefix("Basic "),
           let decoded = Data(base64Encoded: String(basic.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) }),
           let colon = decoded.firstIndex(of: ":") {
            let formDecode = { (part: Substring) in Self.fields("v=" + part)["v"] }
            clientID = formDecode(decoded[..<colon])
            secret = formDecode(decoded[decoded.index(after: colon)...])
            method = "client_secret_basic"
        }
        let assertion = form["client_assertion_type"] == ClientAssertion.type ? form["client_assertion"] : nil
        if let assertion { method = (try? JOSEHeader(assertion))?.alg == "HS256" ? "client_secret_jwt" : "private_key_jwt" }
        guard let client = client(clientID), !registeredSecretExpired(client.clientID) else { return nil }
        if let registered = client.tokenEndpointAuthMethod, registered != method { return nil }
        let allowed = audiences ?? [issuer, issuer + "/token"]
        if method == "client_secret_jwt" {
            guard client.tokenEndpointAuthMethod == method, let assertion,
                  await checkClientAssertion(assertion, client: client, audiences: allowed) else { return nil }
            return client.clientID
        }
        if let expected = client.clientSecret, secret != expected { return nil }
        if client.jwk != nil {
            guard let assertion, await checkClientAssertion(assertion, client: client, audiences: allowed) else { return nil }
        }
        return client.clientID
    }

    /// Tokens for `grant`: an access token with `requested`'s scope and audiences (else the grant's
    /// scope, for the client), an ID token, and with `offline_access` a refresh token for the whole grant.
    func issueTokens(for grant: Grant, includeNonce: Bool, _ requested: RequestedAccess = RequestedAccess()) async -> LocalHTTPResponse {
        let accessToken = Self.randomToken() + (has(.injectingAccessToken) ? "\nquit=1" : has(.spacedAccessToken) ? " opaque" : "")
        let refreshToken = grant.scope.split(separator: " ").contains("offline_access") ? Self.randomToken() : nil
        let now = Date().timeIntervalSince1970.rounded(.down) - (has(.expiredIDToken) ? 3600 : 0)
        let lifetime = Double(accessTokenLifetime)
        let scope = requested.scope ?? grant.scope
        state.withLock { state in
            state.accessTokens[accessToken] = IssuedAccessToken(
                subject: grant.subject, clientID: grant.clientID, scope: scope,
                audiences: requested.audiences.isEmpty ? [grant.clientID] : requested.audiences, expiresAt: Date().addingTimeInterval(lifetime))
            state.dpopBindings[accessToken] = grant.jkt
            if let refreshToken { state.refreshTokens[refreshToken] = grant }
        }
        var claims: [String: JSONValue] = [
            "iss": .string(issuer), "sub": .string(grant.subject), "aud": .string(grant.clientID),
            "iat": .number(now), "exp": .number(has(.expiredIDToken) ? now + 60 : now + lifetime), "auth_time": .number(has(.staleAuthTime) ? now - 3600 : now),
        ]
        if includeNonce, let nonce = grant.nonce { claims["nonce"] = .string(nonce) }
        guard let idToken = await signIDToken(claims, for: grant.clientID) else {
            return LocalHTTPResponse(status: 500, body: "signing failed")
        }
        var body: [String: JSONValue] = [
            "access_token": .string(accessToken), "token_type": .string(grant.jkt == nil ? "Bearer" : "DPoP"),
            "expires_in": .number(lifetime), "id_token": .string(idToken), "scope": .string(scope),
        ]
        if let refreshToken { body["refresh_token"] = .string(refreshToken) }
        var response = json(.object(body), headers: ["Cache-Control": "no-store"])
        if has(.truncatedTokenResponse) { response.body = String(response.body.prefix(response.body.count / 2)) }
        return response
    }

    /// UserInfo for a `Bearer` token, or for a DPoP-bound one presented as `DPoP` with a proof of its key.
    func userinfo(_ request: LocalHTTPRequest) async -> LocalHTTPResponse {
        if has(.serverError) { return LocalHTTPResponse(status: 500, headers: ["Content-Type": "text/plain"], body: "Internal Server Error") }
        let authorization = request.header("Authorization") ?? ""
        let scheme = authorization.prefix { $0 != " " }
        let token = String(authorization.dropFirst(scheme.count + 1))
        let (subject, binding) = state.withLock { ($0.accessTokens[token]?.subject, $0.dpopBindings[token]) }
        let refused = LocalHTTPResponse(status: 401, headers: ["WWW-Authenticate": #"\#(binding == nil ? "Bearer" : "DPoP") error="invalid_token""#])
        if let binding {
            guard scheme == "DPoP" else { return refused }
            switch await checkDPoPProof(request, method: "GET", url: issuer + "/userinfo", accessToken: token) {
            case .proven(let jkt) where jkt == binding: break
            case .nonceRequired(let nonce):
                return LocalHTTPResponse(status: 401, headers: ["WWW-Authenticate": #"DPoP error="use_dpop_nonce""#, "DPoP-Nonce": nonce])
            default: return refused
            }
        } else if scheme != "Bearer" {
            return refused
        }
        guard let subject, let user = user(subject: subject) else { return refused }
        // ProviderFault.userinfoOtherSubject: another person's claims, as a provider that mixed up its sessions would answer.
        let other = has(.userinfoOtherSubject) ? configuration.users.first { $0.subject != user.subject } : nil
        return json(.object(["sub": .string((other ?? user).subject), "name": .string(user.name), "email": .string(user.email),
                             "preferred_username": .string(user.username)]))
    }

    /// RFC 7662 token introspection, for an authenticated client: whether an access token is
    /// active, and its subject, client, scope, audiences (`aud`, from `resource`) and expiry.
    func introspect(_ request: LocalHTTPRequest) async -> LocalHTTPResponse {
        let form = Self.fields(request.body)
        guard await authenticatedClient(request, form: form) != nil else {
            return oauthError("invalid_client", "client authentication failed", status: 401)
        }
        guard let issued = state.withLock({ $0.accessTokens[form["token"] ?? ""] }), issued.expiresAt > Date() else {
            return json(.object(["active": .bool(false)]))
        }
        return json(.object([
            "active": .bool(true), "sub": .string(issued.subject), "client_id": .string(issued.clientID), "scope": .string(issued.scope),
            "aud": .array(issued.audiences.map { .string($0) }), "exp": .number(issued.expiresAt.timeIntervalSince1970.rounded(.down)),
            "token_type": .string("Bearer"),
        ]))
    }

    /// RFC 7009: always 200, whether the token was known or not.
    func revoke(_ request: LocalHTTPRequest) -> LocalHTTPResponse {
        let token = Self.fields(request.body)["token"] ?? ""
        state.withLock { state in
            state.refreshTokens[token] = nil
            state.accessTokens[token] = nil
        }
        return LocalHTTPResponse(status: 200)
    }

    /// RP-initiated logout: records the hint and returns to a registered post-logout redirect URI
    /// with `state`; without one, shows a "signed out" page. With ``ProviderFault/confirmSignOut``
    /// it first asks, and the form posts the answer back here.
    func endSession(_ request: LocalHTTPRequest) -> LocalHTTPResponse {
        let query = Self.fields(request.query)
        if has(.confirmSignOut) {
            guard request.method == "POST" else {
                state.withLock { $0.signedOutHints.append(query["id_token_hint"] ?? "") }
                return .html(LoginPage.confirmSignOut())
            }
            guard Self.fields(request.body)["decision"] == "sign-out" else {
                return .html(LoginPage.message(title: "Still signed in", "You are still signed in."))
            }
        } else {
            state.withLock { $0.signedOutHints.append(query["id_token_hint"] ?? "") }
        }
        guard let client = client(query["client_id"]), let target = query["post_logout_redirect_uri"],
              client.postLogoutRedirectURIs.contains(target) else {
            return .html(LoginPage.message(title: "Signed out", "You are signed out."))
        }
        return redirect(to: target, mode: nil, [("state", query["state"] ?? "")])
    }
}
