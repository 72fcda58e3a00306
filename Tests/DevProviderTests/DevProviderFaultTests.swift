import DevProvider
import Foundation
import JWTKit
import OpenIDConnect
import OpenIDConnectURLSession
import Testing

/// Each fault switch of the development provider, seen through this package's protocol layer:
/// each must end in its own typed error. And the provider's configuration and key files.
@Suite("Development provider: fault switches, configuration and key files")
struct DevProviderFaultTests {
    let http = URLSessionHTTPClient()

    /// Signs alice in over raw HTTP with `faults` on; returns the pieces a test needs.
    func authorize(_ provider: OpenIDProvider) async throws -> (HTTPResponse, AuthorizationRequest, ProviderConfiguration) {
        let configuration = try await ProviderConfiguration.discover(issuer: provider.issuer, using: http)
        let request = AuthorizationRequest(clientID: "webauth-demo", redirectURI: try RedirectURI("com.example.webauth:/callback"),
                                           scopes: ["openid", "offline_access"])
        let answer = try await http.send(HTTPRequest(
            method: "POST", url: request.url(authorizationEndpoint: configuration.authorizationEndpoint),
            headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data("username=alice&password=wonderland".utf8)))
        return (answer, request, configuration)
    }

    func response(_ answer: HTTPResponse, _ request: AuthorizationRequest,
                  _ configuration: ProviderConfiguration) throws -> AuthorizationResponse {
        let callback = try RedirectCallback(url: try #require(answer.headers["location"]), redirectURI: request.redirectURI)
        return try AuthorizationResponse(callback: callback, request: request, configuration: configuration)
    }

    /// Signs in and exchanges the code, with `fault` switched on just before the exchange.
    func exchange(with fault: ProviderFault?) async throws -> (TokenResponse, ProviderConfiguration, AuthorizationRequest) {
        let provider = try await OpenIDProvider.start()
        let (answer, request, configuration) = try await authorize(provider)
        let code = try #require(try response(answer, request, configuration).code)
        if let fault { provider.faults = [fault] }
        let tokens = try await TokenEndpoint(configuration: configuration, clientID: "webauth-demo",
                                             http: URLSessionHTTPClient()).exchange(code: code, for: request)
        return (tokens, configuration, request)
    }

    @Test("deny: the login succeeds but the answer is access_denied")
    func deny() async throws {
        let provider = try await OpenIDProvider.start()
        provider.faults = [.deny]
        let (answer, request, configuration) = try await authorize(provider)
        do {
            _ = try response(answer, request, configuration)
            Issue.record("no error")
        } catch {
            guard case .authorization(let oauth) = error as? OpenIDConnectError else { throw error }
            #expect(oauth.isAccessDenied)
        }
    }

    @Test("wrong-issuer: the response's iss is refused (RFC 9207 mix-up defence)")
    func wrongIssuer() async throws {
        let provider = try await OpenIDProvider.start()
        provider.faults = [.wrongIssuer]
        let (answer, request, configuration) = try await authorize(provider)
        #expect(throws: OpenIDConnectError.responseIssuerMismatch(expected: provider.issuer, actual: "https://attacker.example")) {
            try response(answer, request, configuration)
        }
    }

    @Test("slow: every answer waits the configured time first")
    func slow() async throws {
        var settings = DevProviderConfiguration()
        settings.faults = [.slow]
        settings.slowResponseSeconds = 0.5
        let provider = try await OpenIDProvider.start(configuration: settings)
        let started = ContinuousClock.now
        _ = try await http.send(HTTPRequest(url: URL(string: provider.issuer + "/jwks")!))
        // A lower bound the provider's own sleep guarantees; not a speed measurement.
        #expect(ContinuousClock.now - started >= .milliseconds(500))
    }

    @Test("token-endpoint faults each end in their own error",
          arguments: [ProviderFault.invalidGrant, .serverError, .htmlErrorPage])
    func tokenFaults(fault: ProviderFault) async throws {
        do {
            _ = try await exchange(with: fault)
            Issue.record("tokens despite \(fault)")
        } catch let error as OpenIDConnectError {
            switch (fault, error) {
            case (.invalidGrant, .token(let oauth)): #expect(oauth.isInvalidGrant)
            case (.serverError, .unexpectedResponse(_, let status, _, _)): #expect(status == 500)
            case (.htmlErrorPage, .unexpectedResponse(_, let status, let type, let snippet)):
                #expect(status == 502 && type?.hasPrefix("text/html") == true && snippet.contains("Bad Gateway"))
            default: Issue.record("\(fault) gave \(error)")
            }
        }
    }

    @Test("ID-token faults are caught by the validator", arguments: [ProviderFault.expiredIDToken, .badIDTokenSignature, .staleAuthTime])
    func idTokenFaults(fault: ProviderFault) async throws {
        let (tokens, configuration, request) = try await exchange(with: fault)
        let validator = try IDTokenValidator(configuration: configuration, clientID: "webauth-demo", http: URLSessionHTTPClient())
        let idToken = try #require(tokens.idToken)
        do throws(IDTokenError) {
            _ = try await validator.validate(idToken, nonce: request.nonce, authTime: AuthTimeRequirement(maxAge: .seconds(600)))
            Issue.record("the ID token passed despite \(fault)")
        } catch {
            switch (fault, error) {
            case (.expiredIDToken, .expired): break
            case (.badIDTokenSignature, .invalidSignature): break
            case (.staleAuthTime, .authenticationTooOld): break
            default: Issue.record("\(fault) gave \(error)")
            }
        }
    }

    @Test("server-error on userinfo is a 500")
    func userinfoServerError() async throws {
        let provider = try await OpenIDProvider.start()
        provider.faults = [.serverError]
        let answer = try await http.send(HTTPRequest(url: URL(string: provider.issuer + "/userinfo")!))
        #expect(answer.status == 500)
    }

    @Test("a configuration file gives users, clients and settings; missing keys keep their defaults")
    func configurationFile() async throws {
        let file = try Self.temporaryFile("""
            {"users": [{"username": "carol", "password": "pw", "subject": "c-1", "name": "Carol", "email": "carol@example.com"}],
             "clients": [{"client_id": "tool", "redirect_uris": ["http://127.0.0.1:9999/cb"], "require_consent": true}],
             "faults": ["deny"]}
            """)
        defer { try? FileManager.default.removeItem(at: file) }
        let settings = try DevProviderConfiguration.load(from: file)
        #expect(settings.users.map(\.username) == ["carol"])
        #expect(settings.clients == [OpenIDProvider.Client(clientID: "tool", redirectURIs: ["http://127.0.0.1:9999/cb"], requiresConsent: true)])
        #expect(settings.clients[0].postLogoutRedirectURIs == ["http://127.0.0.1:9999/cb"])
        #expect(settings.faults == [.deny] && settings.loginMethod == .password && settings.accessTokenLifetime == 300)
    }

    @Test("a configuration file that is missing, malformed or incomplete is a typed error",
          arguments: ["{", #"{"clients": []}"#, #"{"clients": [{"client_id": "x", "redirect_uris": []}]}"#,
                      #"{"faults": ["no-such-fault"]}"#, #"{"access_token_lifetime": -1}"#])
    func badConfigurationFile(text: String) throws {
        let file = try Self.temporaryFile(text)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: DevProviderConfigurationError.self) { try DevProviderConfiguration.load(from: file) }
        do {
            _ = try DevProviderConfiguration.load(from: URL(fileURLWithPath: "/nonexistent/provider.json"))
            Issue.record("a missing file was read")
        } catch {
            guard case .unreadable(let path, _) = error else { throw error }
            #expect(path == "/nonexistent/provider.json")
        }
    }

    @Test("a key file signs the ID tokens that the published JWKS verifies; a bad key file is refused")
    func keyFile() async throws {
        let key = ES256PrivateKey()
        let file = try Self.temporaryFile(key.pemRepresentation)
        let notAKey = try Self.temporaryFile("not a key")
        defer { for url in [file, notAKey] { try? FileManager.default.removeItem(at: url) } }
        let loaded = try OpenIDProvider.signingKey(pemFile: file)
        let provider = try await OpenIDProvider.start(configuration: DevProviderConfiguration(), signingKey: loaded)
        let jwks = try JSONValue(parsing: String(decoding: try await http.send(HTTPRequest(url: URL(string: provider.issuer + "/jwks")!)).body,
                                                 as: UTF8.self))
        guard case .array(let keys)? = jwks["keys"] else { Issue.record("no keys"); return }
        #expect(keys.first?["x"] == .string(key.publicKey.parameters!.x))
        #expect(throws: DevProviderConfigurationError.self) { try OpenIDProvider.signingKey(pemFile: notAKey) }
    }

    /// A new file in the temporary directory holding `text` (the test removes it).
    static func temporaryFile(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("devprovider-\(UUID().uuidString)")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }
}
