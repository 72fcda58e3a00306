import Foundation
import OpenIDConnect
import Testing

@Suite("Authorization request and response")
struct AuthorizationTests {
    let redirect = try! RedirectURI("com.example.app:/oauth2redirect")
    let configuration = ProviderConfiguration(issuer: "https://id.example.com", authorizationEndpoint: URL(string: "https://id.example.com/authorize?tenant=x")!,
                                              tokenEndpoint: URL(string: "https://id.example.com/token")!)

    @Test("PKCE S256: RFC 7636 appendix B vector, fresh verifiers are 43 characters and differ")
    func pkce() throws {
        let vector = try PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(vector.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        let (a, b) = (PKCE(), PKCE())
        #expect(a.verifier.count == 43 && a.verifier != b.verifier)
        #expect(throws: PKCEError.invalidVerifier) { try PKCE(verifier: "too-short") }
        #expect(throws: PKCEError.invalidVerifier) { try PKCE(verifier: String(repeating: "a", count: 42) + "!") }
    }

    @Test("the request URL carries everything, keeps the endpoint's query, and extras cannot override security parameters")
    func requestURL() throws {
        let request = AuthorizationRequest(clientID: "app", redirectURI: redirect, scopes: ["profile", "offline_access"],
                                           additionalParameters: ["acr_values": "idp:google", "prompt": "login", "state": "forced"])
        let url = request.url(authorizationEndpoint: configuration.authorizationEndpoint)
        let items = Dictionary(try FormURLEncoding.decode(url.query ?? ""), uniquingKeysWith: { first, _ in first })
        #expect(items["tenant"] == "x")
        #expect(items["response_type"] == "code")
        #expect(items["scope"] == "openid profile offline_access")
        #expect(items["redirect_uri"] == "com.example.app:/oauth2redirect")
        #expect(items["code_challenge_method"] == "S256")
        #expect(items["code_challenge"] == request.pkce?.challenge)
        #expect(items["acr_values"] == "idp:google" && items["prompt"] == "login")
        #expect(items["state"] == request.state && request.state != "forced")
        #expect(request.state.count >= 43 && request.nonce.count >= 43 && request.state != request.nonce)
        #expect(AuthorizationRequest(clientID: "app", redirectURI: redirect, responseType: .idTokenToken).pkce == nil)
    }

    func callback(_ query: String, request: AuthorizationRequest, fragment: Bool = false) throws -> RedirectCallback {
        try RedirectCallback(url: redirect.string + (fragment ? "#" : "?") + query, redirectURI: redirect)
    }

    @Test("a good code response")
    func goodResponse() throws {
        let request = AuthorizationRequest(clientID: "app", redirectURI: redirect)
        let response = try AuthorizationResponse(callback: callback("code=abc&state=\(request.state)", request: request),
                                                 request: request, configuration: configuration)
        #expect(response.code == "abc")
    }

    @Test("each rejection", arguments: [
        ("code=abc&state=wrong", OpenIDConnectError.stateMismatch),
        ("code=abc", .stateMismatch),
        ("state=STATE", .missingParameter("code")),
        ("code=&state=STATE", .missingParameter("code")),
        ("error=access_denied&error_description=No+thanks&state=STATE", .authorization(OAuthError(error: "access_denied", errorDescription: "No thanks"))),
        ("error=access_denied&state=wrong", .stateMismatch),
        ("code=abc&state=STATE&iss=https://evil.example", .responseIssuerMismatch(expected: "https://id.example.com", actual: "https://evil.example")),
    ])
    func rejections(query: String, error: OpenIDConnectError) throws {
        let request = AuthorizationRequest(clientID: "app", redirectURI: redirect)
        let query = query.replacingOccurrences(of: "STATE", with: request.state)
        #expect(throws: error) {
            try AuthorizationResponse(callback: callback(query, request: request), request: request, configuration: configuration)
        }
    }

    @Test("access_denied is easy to tell apart")
    func accessDenied() throws {
        let request = AuthorizationRequest(clientID: "app", redirectURI: redirect)
        do {
            _ = try AuthorizationResponse(callback: callback("error=access_denied&state=\(request.state)", request: request),
                                          request: request, configuration: configuration)
            Issue.record("accepted access_denied")
        } catch let error as OpenIDConnectError {
            guard case .authorization(let oauth) = error else { throw error }
            #expect(oauth.isAccessDenied)
        }
    }

    @Test("iss is required when the provider advertises RFC 9207, and checked when present")
    func issuerParameter() throws {
        var strict = configuration
        strict.authorizationResponseIssParameterSupported = true
        let request = AuthorizationRequest(clientID: "app", redirectURI: redirect)
        #expect(throws: OpenIDConnectError.responseIssuerMismatch(expected: strict.issuer, actual: nil)) {
            try AuthorizationResponse(callback: callback("code=a&state=\(request.state)", request: request), request: request, configuration: strict)
        }
        let ok = try AuthorizationResponse(callback: callback("code=a&state=\(request.state)&iss=\(FormURLEncoding.percentEncode(strict.issuer))", request: request),
                                           request: request, configuration: strict)
        #expect(ok.code == "a")
    }

    @Test("parameters must arrive where the response mode puts them")
    func responseMode() throws {
        let request = AuthorizationRequest(clientID: "app", redirectURI: redirect)
        let injected = try RedirectCallback(url: redirect.string + "?state=\(request.state)#code=injected", redirectURI: redirect)
        #expect(throws: OpenIDConnectError.responseModeMismatch(parameter: "code", expected: .query, actual: .fragment)) {
            try AuthorizationResponse(callback: injected, request: request, configuration: configuration)
        }
        let implicit = AuthorizationRequest(clientID: "app", redirectURI: redirect, responseType: .idTokenToken)
        let fragment = try callback("access_token=at&token_type=Bearer&id_token=x.y.z&state=\(implicit.state)", request: implicit, fragment: true)
        let response = try AuthorizationResponse(callback: fragment, request: implicit, configuration: configuration)
        #expect(response.accessToken == "at" && response.idToken == "x.y.z")
    }

    @Test("a request survives encoding (it is saved while the person signs in)")
    func codable() throws {
        let request = AuthorizationRequest(clientID: "app", redirectURI: redirect, responseMode: .formPost)
        let decoded = try JSONDecoder().decode(AuthorizationRequest.self, from: JSONEncoder().encode(request))
        #expect(decoded == request)
    }

    @Test("max_age and prompt=login make auth_time required; nothing else does", arguments: [
        ([:], nil, false),
        (["max_age": "300"], 300, false),
        (["max_age": "soon"], 0, false),
        (["prompt": "login"], nil, true),
        (["prompt": "consent login", "max_age": "0"], 0, true),
        (["prompt": "consent", "login_hint": "login"], nil, false),
    ] as [([String: String], Int?, Bool)])
    func authTimeRequirement(parameters: [String: String], maxAge: Int?, freshLogin: Bool) {
        let request = AuthorizationRequest(clientID: "app", redirectURI: redirect, additionalParameters: parameters)
        let expected = maxAge == nil && !freshLogin ? nil
            : AuthTimeRequirement(maxAge: maxAge.map { .seconds($0) }, notBefore: freshLogin ? request.createdAt : nil)
        #expect(request.authTimeRequirement == expected)
    }

    @Test("logout: the request carries hint, redirect, client and state; a wrong state on the way back is refused")
    func endSession() throws {
        let logout = EndSessionRequest(idTokenHint: "a.b.c", postLogoutRedirectURI: redirect, clientID: "app")
        let url = logout.url(endSessionEndpoint: URL(string: "https://id.example.com/logout")!)
        let items = Dictionary(try FormURLEncoding.decode(url.query ?? ""), uniquingKeysWith: { first, _ in first })
        #expect(items["id_token_hint"] == "a.b.c" && items["client_id"] == "app" && items["state"] == logout.state)
        #expect(items["post_logout_redirect_uri"] == redirect.string)
        try logout.validate(try RedirectCallback(url: redirect.string + "?state=" + logout.state, redirectURI: redirect))
        #expect(throws: OpenIDConnectError.stateMismatch) {
            try logout.validate(try RedirectCallback(url: redirect.string + "?state=forged", redirectURI: redirect))
        }
    }
}
