import Foundation
import OpenIDConnect

/// The answers of a provider's back-channel endpoints, read by the OpenIDConnect types that send
/// the requests: every endpoint answers the input (as a success, then as an error), except the
/// key set, which is ``IDTokenFuzzing/jwks``, so a token answer's ID token is validated too.
enum EndpointFuzzing {
    /// A provider that answers every request with `body` and `status` (the key set with its keys).
    struct Answering: HTTPClient {
        let status: Int
        let body: Data

        func send(_ request: HTTPRequest) async throws(HTTPClientError) -> HTTPResponse {
            if request.url == EndpointFuzzing.configuration.jwksURI {
                return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(IDTokenFuzzing.jwks.utf8))
            }
            return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body)
        }
    }


    static let configuration: ProviderConfiguration = {
        var configuration = ProviderConfiguration(issuer: "https://id.example.com", authorizationEndpoint: URL(string: "https://id.example.com/a")!,
                                                  tokenEndpoint: URL(string: "https://id.example.com/t")!,
                                                  jwksURI: URL(string: "https://id.example.com/jwks")!)
        configuration.deviceAuthorizationEndpoint = URL(string: "https://id.example.com/device")
        configuration.pushedAuthorizationRequestEndpoint = URL(string: "https://id.example.com/par")
        return configuration
    }()

    /// A device code to poll with when the input is not one.
    static let code = DeviceCode(deviceCode: "dc", userCode: "ABCD-EFGH", verificationURI: URL(string: "https://id.example.com/device")!,
                                 expiresIn: 600, interval: 5)

    /// The device authorization answer (RFC 8628 §3.2) and the token endpoint's answer to a poll
    /// (§3.5: pending, slow down, denied, expired, or tokens), plus a saved device code.
    static func deviceAuthorization(_ data: Data) {
        _ = try? JSONDecoder().decode(DeviceCode.self, from: data)
        runBlocking(data) { data in
            for status in [200, 400] {
                guard let grant = try? DeviceAuthorization(configuration: configuration, clientID: "client",
                                                           http: Answering(status: status, body: data)) else { continue }
                let code = (try? await grant.requestCode(scopes: ["openid"])) ?? code
                _ = try? await grant.poll(code, interval: .seconds(5))
            }
        }
    }

    /// The pushed authorization request endpoint's answer (RFC 9126 §2.2, §2.3).
    static func pushedAuthorization(_ data: Data) {
        runBlocking(data) { data in
            for status in [201, 400] {
                let endpoint = PushedAuthorizationRequest(configuration: configuration, http: Answering(status: status, body: data))
                _ = try? await endpoint.push(request)
            }
        }
    }

    static let request = AuthorizationRequest(clientID: "client", redirectURI: FuzzTarget.callbackRedirect)
}
