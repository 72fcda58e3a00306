import DevProvider
import DevProviderTestSupport
import Foundation
import OpenIDConnect
import OpenIDConnectURLSession
import SignInFiles
import Testing

/// The development provider over raw HTTP, as curl would use it, and through this package's
/// protocol layer: every endpoint, every login page, every fault switch.
@Suite("Development provider: every endpoint and fault over raw HTTP")
struct ProviderEndpointTests {
    let raw = ProviderOverHTTP()

    @Test("discovery and JWKS describe what the provider does")
    func discovery() async throws {
        let provider = try await raw.provider()
        let document = try JSONValue(parsing: raw.text(try await raw.get(URL(string: provider.issuer + "/.well-known/openid-configuration")!)))
        #expect(document["issuer"] == .string(provider.issuer))
        #expect(document["code_challenge_methods_supported"] == .array([.string("S256")]))
        #expect(document["authorization_response_iss_parameter_supported"] == .bool(true))
        let jwks = try JSONValue(parsing: raw.text(try await raw.get(URL(string: provider.issuer + "/jwks")!)))
        guard case .array(let keys)? = jwks["keys"] else { Issue.record("no keys"); return }
        #expect(keys.count == 1 && keys[0]["kty"] == .string("EC") && keys[0]["d"] == nil, "one public EC key, no private part")
    }

    /// Parallel requests contend the provider's state lock; under ThreadSanitizer (scripts/sanitizers)
    /// a lock whose hand-over it cannot see shows up as a race report here.
    @Test("parallel requests are each counted once")
    func parallelRequests() async throws {
        let provider = try await raw.provider()
        let url = URL(string: provider.issuer + "/jwks")!
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<40 { group.addTask { try await raw.get(url).status } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 40))
        #expect(provider.requestCount("/jwks") == 40)
    }

    @Test("the password page, a wrong password, then a code with state and iss; the code works once and only with its verifier")
    func passwordLoginAndCode() async throws {
        let provider = try await raw.provider()
        let (request, configuration) = try await raw.request(provider)
        let url = request.url(authorizationEndpoint: configuration.authorizationEndpoint)
        let page = try await raw.get(url)
        #expect(page.status == 200 && raw.text(page).contains("id=\"password\""))
        let wrong = try await raw.logIn(url, password: "nope")
        #expect(wrong.status == 401 && raw.text(wrong).contains("Wrong user name or password."))
        let code = try #require(try raw.response(try await raw.logIn(url), request, configuration).code)

        let endpoint = TokenEndpoint(configuration: configuration, clientID: "webauth-demo", http: URLSessionHTTPClient())
        let forged = AuthorizationRequest(clientID: "webauth-demo", redirectURI: request.redirectURI, scopes: ["openid"])
        await #expect(throws: OpenIDConnectError.self, "another verifier (PKCE mismatch) is refused") {
            try await endpoint.exchange(code: code, for: forged)
        }
        // The failed attempt used the code up: single use is single use.
        await #expect(throws: OpenIDConnectError.self) { try await endpoint.exchange(code: code, for: request) }

        let again = try #require(try raw.response(try await raw.logIn(url), request, configuration).code)
        let tokens = try await endpoint.exchange(code: again, for: request)
        #expect(tokens.refreshToken != nil && tokens.idToken != nil)
        do throws(OpenIDConnectError) {
            _ = try await endpoint.exchange(code: again, for: request)
            Issue.record("a replayed code was accepted")
        } catch {
            guard case .token(let oauth) = error else { throw error }
            #expect(oauth.isInvalidGrant)
        }
    }

    @Test("requests that must never be redirected show an error page; bad ones redirect with an error")
    func badRequests() async throws {
        let provider = try await raw.provider()
        let base = provider.issuer + "/authorize?response_type=code&code_challenge=x&code_challenge_method=S256"
        let unknown = try await raw.get(URL(string: base + "&client_id=nobody&redirect_uri=com.example.webauth:/callback")!)
        #expect(unknown.status == 400 && unknown.headers["location"] == nil)
        let unregistered = try await raw.get(URL(string: base + "&client_id=webauth-demo&redirect_uri=com.evil:/callback")!)
        #expect(unregistered.status == 400 && unregistered.headers["location"] == nil)
        let noPKCE = try await raw.get(URL(string: provider.issuer + "/authorize?response_type=code&client_id=webauth-demo&redirect_uri=com.example.webauth:/callback&state=s")!)
        #expect(noPKCE.headers["location"]?.contains("error=invalid_request") == true)
        let implicit = try await raw.get(URL(string: provider.issuer
            + "/authorize?response_type=token&client_id=webauth-demo&redirect_uri=com.example.webauth:/callback&state=s")!)
        #expect(implicit.headers["location"]?.contains("error=unsupported_response_type") == true)
    }

    @Test("remembers_people: the redirect sets a session cookie; with it the next request gets a code with no login or consent page, unless prompt=login or prompt=consent; /logout forgets it; off by default")
    func rememberedPeople() async throws {
        let provider = try await raw.provider { $0.remembersPeople = true }
        let (request, configuration) = try await raw.request(provider, client: "consent-app")
        let url = request.url(authorizationEndpoint: configuration.authorizationEndpoint)
        let consentPage = try await raw.logIn(url)
        let interaction = try #require(raw.text(consentPage).firstMatch(of: /name="interaction" value="([^"]+)"/)?.1)
        let first = try await raw.post(url, [("step", "consent"), ("interaction", String(interaction)), ("decision", "allow")])
        #expect(try raw.response(first, request, configuration).code != nil)
        let setCookie = try #require(first.headers["set-cookie"], "\(first.headers)")
        #expect(setCookie.hasPrefix("webauth_dev_session=") && setCookie.contains("HttpOnly"), "\(setCookie)")
        let cookie = ["Cookie": String(setCookie.prefix { $0 != ";" })]

        let again = try await raw.http.send(HTTPRequest(url: url, headers: cookie))
        #expect(try raw.response(again, request, configuration).code != nil, "remembered: straight to the redirect")
        for prompt in ["login", "consent"] {
            let (asking, _) = try await raw.request(provider, client: "consent-app", extra: ["prompt": prompt])
            let page = try await raw.http.send(HTTPRequest(url: asking.url(authorizationEndpoint: configuration.authorizationEndpoint), headers: cookie))
            #expect(page.status == 200 && raw.text(page).contains(prompt == "login" ? "id=\"password\"" : "id=\"allow\""), "prompt=\(prompt)")
        }
        let (other, _) = try await raw.request(provider, client: "webauth-demo")
        let otherClient = try await raw.http.send(HTTPRequest(url: other.url(authorizationEndpoint: configuration.authorizationEndpoint), headers: cookie))
        #expect(try raw.response(otherClient, other, configuration).code != nil, "the person is remembered for a client that asks no consent")

        let logout = try await raw.http.send(HTTPRequest(url: URL(string: provider.issuer + "/logout")!, headers: cookie))
        #expect(logout.headers["set-cookie"]?.contains("Max-Age=0") == true, "\(logout.headers)")
        let forgotten = try await raw.http.send(HTTPRequest(url: url, headers: cookie))
        #expect(forgotten.status == 200 && raw.text(forgotten).contains("id=\"password\""), "the session ended: the login page again")

        let plain = try await raw.provider()
        let (plainRequest, plainConfiguration) = try await raw.request(plain)
        let answer = try await raw.logIn(plainRequest.url(authorizationEndpoint: plainConfiguration.authorizationEndpoint))
        #expect(answer.status == 302 && answer.headers["set-cookie"] == nil, "off by default: \(answer.headers)")
    }

    @Test("consent: Allow gives a code, Deny gives access_denied, and a consent form works once")
    func consent() async throws {
        let provider = try await raw.provider()
        let (request, configuration) = try await raw.request(provider, client: "consent-app")
        let url = request.url(authorizationEndpoint: configuration.authorizationEndpoint)
        let consentPage = try await raw.logIn(url)
        #expect(consentPage.status == 200 && raw.text(consentPage).contains("id=\"allow\"") && raw.text(consentPage).contains("offline_access"))
        let interaction = try #require(raw.text(consentPage).firstMatch(of: /name="interaction" value="([^"]+)"/)?.1)
        let allowed = try raw.response(try await raw.post(url, [("step", "consent"), ("interaction", String(interaction)), ("decision", "allow")]),
                                       request, configuration)
        #expect(allowed.code != nil)
        let replay = try await raw.post(url, [("step", "consent"), ("interaction", String(interaction)), ("decision", "allow")])
        #expect(replay.status == 400, "a consent form is for one decision")

        let second = try #require(raw.text(try await raw.logIn(url)).firstMatch(of: /name="interaction" value="([^"]+)"/)?.1)
        let denied = try await raw.post(url, [("step", "consent"), ("interaction", String(second)), ("decision", "deny")])
        #expect(throws: OpenIDConnectError.self) { try raw.response(denied, request, configuration) }
        #expect(denied.headers["location"]?.contains("error=access_denied") == true)
    }

    @Test("email one-time code: the code goes to the outbox, wrong codes run out, resend replaces the code")
    func emailCode() async throws {
        let provider = try await raw.provider { $0.loginMethod = .emailCode }
        let (request, configuration) = try await raw.request(provider)
        let url = request.url(authorizationEndpoint: configuration.authorizationEndpoint)
        #expect(raw.text(try await raw.get(url)).contains("id=\"email\""), "the configured login method comes first")
        let unknown = try await raw.post(url, [("step", "email"), ("email", "nobody@example.com")])
        #expect(unknown.status == 404 && provider.outbox.isEmpty)

        let codePage = try await raw.post(url, [("step", "email"), ("email", "alice@example.com")])
        #expect(codePage.status == 200 && raw.text(codePage).contains("id=\"resend\""))
        let outbox = try JSONValue(parsing: raw.text(try await raw.get(URL(string: provider.issuer + "/outbox?email=alice@example.com")!)))
        guard case .array(let messages) = outbox, let first = messages.last?["code"]?.stringValue else {
            Issue.record("no message in the outbox: \(outbox)"); return
        }
        #expect(provider.outbox.map(\.code) == [first])
        for attempt in 1...OpenIDProvider.oneTimeCodeTries {
            let wrong = try await raw.post(url, [("step", "code"), ("email", "alice@example.com"), ("code", "x\(attempt)")])
            #expect(wrong.status == 401)
        }
        let expired = try await raw.post(url, [("step", "code"), ("email", "alice@example.com"), ("code", first)])
        #expect(expired.status == 401 && raw.text(expired).contains("Send a new code"), "after too many tries the code is gone")

        let resent = try await raw.post(url, [("step", "resend"), ("email", "alice@example.com")])
        #expect(raw.text(resent).contains("A new code was sent"))
        let code = try #require(provider.outbox.last?.code)
        let signedIn = try raw.response(try await raw.post(url, [("step", "code"), ("email", "alice@example.com"), ("code", code)]),
                                        request, configuration)
        #expect(signedIn.code != nil)
    }

    @Test("TOTP second factor: after the password, the authenticator code; a wrong code and a reused one are refused")
    func totpFactor() async throws {
        let dora = OpenIDProvider.User(username: "dora", password: "explorer", subject: "248289761004", name: "Dora",
                                       email: "dora@example.com", totpSecret: "JBSWY3DPEHPK3PXP")
        let provider = try await raw.provider { $0.users = [.alice, dora] }
        let (request, configuration) = try await raw.request(provider)
        let url = request.url(authorizationEndpoint: configuration.authorizationEndpoint)
        let generator = try TimeBasedOneTimePassword(base32Secret: "JBSWY3DPEHPK3PXP")
        #expect(try await raw.logIn(url).status == 302, "a user without a TOTP secret signs in with the password alone")

        let codePage = try await raw.logIn(url, username: "dora", password: "explorer")
        #expect(codePage.status == 200 && raw.text(codePage).contains("authenticator code"))
        let interaction = String(try #require(raw.text(codePage).firstMatch(of: /name="interaction" value="([^"]+)"/)?.1))
        let code = generator.code(at: Date())
        let refused = try await raw.post(url, [("step", "totp"), ("interaction", interaction), ("code", "00000x")])
        #expect(refused.status == 401 && raw.text(refused).contains("not right"))
        let signedIn = try raw.response(try await raw.post(url, [("step", "totp"), ("interaction", interaction), ("code", code)]),
                                        request, configuration)
        #expect(signedIn.code != nil)

        let again = try await raw.logIn(url, username: "dora", password: "explorer")
        let second = String(try #require(raw.text(again).firstMatch(of: /name="interaction" value="([^"]+)"/)?.1))
        let reused = try await raw.post(url, [("step", "totp"), ("interaction", second), ("code", code)])
        #expect(reused.status == 401 && raw.text(reused).contains("already used"), "a code works once")
        let forged = try await raw.post(url, [("step", "totp"), ("interaction", "made-up"), ("code", code)])
        #expect(forged.status == 400, "a TOTP form needs the interaction its password page made")
    }

    @Test("refresh rotates, revocation ends the refresh token, userinfo needs a live token")
    func refreshRevokeUserinfo() async throws {
        let provider = try await raw.provider()
        let (request, configuration) = try await raw.request(provider)
        let url = request.url(authorizationEndpoint: configuration.authorizationEndpoint)
        let endpoint = TokenEndpoint(configuration: configuration, clientID: "webauth-demo", http: URLSessionHTTPClient())
        let code = try #require(try raw.response(try await raw.logIn(url), request, configuration).code)
        let tokens = try await endpoint.exchange(code: code, for: request)
        let userinfoURL = try #require(configuration.userinfoEndpoint)
        let info = try await raw.http.send(HTTPRequest(url: userinfoURL, headers: ["Authorization": "Bearer \(tokens.accessToken)"]))
        #expect(try JSONValue(parsing: raw.text(info))["sub"] == .string(OpenIDProvider.User.alice.subject))
        let anonymous = try await raw.http.send(HTTPRequest(url: userinfoURL, headers: ["Authorization": "Bearer nope"]))
        #expect(anonymous.status == 401 && anonymous.headers["www-authenticate"]?.contains("invalid_token") == true)

        let rotated = try await endpoint.refresh(refreshToken: try #require(tokens.refreshToken))
        try await endpoint.revoke(try #require(rotated.refreshToken), hint: "refresh_token")
        await #expect(throws: OpenIDConnectError.self) { try await endpoint.refresh(refreshToken: rotated.refreshToken!) }
        await #expect(throws: OpenIDConnectError.self, "the rotated-away token is dead too") {
            try await endpoint.refresh(refreshToken: tokens.refreshToken!)
        }
    }

    @Test("a confidential client authenticates with Basic or in the body, and not without its secret",
          arguments: [ClientAuthentication.clientSecretBasic(secret: "s3cret"), .clientSecretPost(secret: "s3cret")])
    func confidentialClient(authentication: ClientAuthentication) async throws {
        let provider = try await raw.provider()
        let (request, configuration) = try await raw.request(provider, client: "server-app")
        let url = request.url(authorizationEndpoint: configuration.authorizationEndpoint)
        let code = try #require(try raw.response(try await raw.logIn(url), request, configuration).code)
        let anonymous = TokenEndpoint(configuration: configuration, clientID: "server-app", http: URLSessionHTTPClient())
        do throws(OpenIDConnectError) {
            _ = try await anonymous.exchange(code: code, for: request)
            Issue.record("a confidential client got tokens without its secret")
        } catch {
            guard case .token(let oauth) = error else { throw error }
            #expect(oauth.error == "invalid_client")
        }
        let again = try #require(try raw.response(try await raw.logIn(url), request, configuration).code)
        let tokens = try await TokenEndpoint(configuration: configuration, clientID: "server-app", authentication: authentication,
                                             http: URLSessionHTTPClient())
            .exchange(code: again, for: request)
        #expect(!tokens.accessToken.isEmpty)
    }

    @Test("end session returns to a registered URI with state, and shows a page otherwise")
    func endSession() async throws {
        let provider = try await raw.provider()
        let registered = try await raw.get(URL(string: provider.issuer
            + "/logout?client_id=webauth-demo&post_logout_redirect_uri=com.example.webauth:/callback&state=xyz&id_token_hint=h")!)
        #expect(registered.headers["location"] == "com.example.webauth:/callback?state=xyz")
        let other = try await raw.get(URL(string: provider.issuer + "/logout?client_id=webauth-demo&post_logout_redirect_uri=com.evil:/x")!)
        #expect(other.status == 200 && other.headers["location"] == nil && raw.text(other).contains("signed out"))
        #expect(provider.logoutHints == ["h", ""])
    }
}
