import DevProvider
import DevProviderTestSupport
import Foundation
import OpenIDConnect
import OpenIDConnectURLSession
import TestSupport
import Testing

/// Pushed authorization requests (RFC 9126) on both sides: the client pushes its request with
/// its authentication and opens the page with `client_id` and `request_uri` only; the
/// development provider keeps the request under a single-use `request_uri` that expires, and,
/// when it requires PAR, refuses requests that were not pushed.
@Suite("Pushed authorization requests against the development provider")
struct PushedAuthorizationTests {
    let raw = ProviderOverHTTP()

    @Test("a provider that requires PAR says so, refuses a plain request, and signs in with a pushed one; its request_uri works once")
    func requiredPAR() async throws {
        let provider = try await raw.provider { $0.requirePushedAuthorizationRequests = true }
        let (request, configuration) = try await raw.request(provider)
        #expect(PushedAuthorizationRequest.isUsed(asked: false, by: configuration))
        let plain = try await raw.get(request.url(authorizationEndpoint: configuration.authorizationEndpoint))
        #expect(plain.headers["location"]?.contains("error=invalid_request") == true)

        let url = try await PushedAuthorizationRequest(configuration: configuration, http: URLSessionHTTPClient()).push(request)
        let names = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.map(\.name)
        #expect(names == ["client_id", "request_uri"], "no state, nonce or PKCE challenge in the front channel")
        #expect(try await raw.get(url).status == 200)
        let code = try #require(try raw.response(try await raw.logIn(url), request, configuration).code)
        let tokens = try await TokenEndpoint(configuration: configuration, clientID: "webauth-demo",
                                             http: URLSessionHTTPClient()).exchange(code: code, for: request)
        #expect(tokens.idToken != nil)
        let again = try await raw.get(url)
        #expect(again.status == 400 && again.headers["location"] == nil, "a request_uri is for one sign-in")
    }

    @Test("an expired request_uri is refused")
    func expiry() async throws {
        let provider = try await raw.provider { $0.pushedRequestLifetime = 0 }
        let (request, configuration) = try await raw.request(provider)
        #expect(!PushedAuthorizationRequest.isUsed(asked: false, by: configuration))
        let url = try await PushedAuthorizationRequest(configuration: configuration, http: URLSessionHTTPClient()).push(request)
        let expired = try await raw.get(url)
        #expect(expired.status == 400 && raw.text(expired).contains("expired"))
    }

    @Test("client authentication applies at the PAR endpoint; a refusal is a typed error with the provider's words")
    func authenticationAndRefusal() async throws {
        let pair = try ClientKeyPair(.ec)
        let provider = try await raw.provider {
            $0.clients.append(OpenIDProvider.Client(clientID: "key-app", redirectURIs: [ProviderOverHTTP.redirect], jwk: pair.jwk))
        }
        let (request, configuration) = try await raw.request(provider, client: "key-app")
        for authentication in [ClientAuthentication.none, .privateKeyJWT(.pemFile(try ClientKeyPair(.ec).path))] {
            do throws(OpenIDConnectError) {
                _ = try await PushedAuthorizationRequest(configuration: configuration, authentication: authentication,
                                                         http: URLSessionHTTPClient()).push(request)
                Issue.record("pushed with \(authentication)")
            } catch {
                guard case .pushedAuthorizationRefused(let oauth) = error else { throw error }
                #expect(oauth.error == "invalid_client")
            }
        }
        let signed = ClientAuthentication.privateKeyJWT(.pemFile(pair.path))
        let url = try await PushedAuthorizationRequest(configuration: configuration, authentication: signed,
                                                       http: URLSessionHTTPClient()).push(request)
        let code = try #require(try raw.response(try await raw.logIn(url), request, configuration).code)
        _ = try await TokenEndpoint(configuration: configuration, clientID: "key-app", authentication: signed,
                                    http: URLSessionHTTPClient()).exchange(code: code, for: request)

        let elsewhere = AuthorizationRequest(clientID: "key-app", redirectURI: try RedirectURI("com.evil:/cb"))
        do throws(OpenIDConnectError) {
            _ = try await PushedAuthorizationRequest(configuration: configuration, authentication: signed,
                                                     http: URLSessionHTTPClient()).push(elsewhere)
            Issue.record("pushed an unregistered redirect URI")
        } catch {
            guard case .pushedAuthorizationRefused(let oauth) = error else { throw error }
            #expect(oauth.error == "invalid_request" && error.description.contains("not registered"))
        }
    }
}
