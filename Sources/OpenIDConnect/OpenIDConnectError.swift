/// Why an OpenID Connect operation failed. Network and TLS failures (``http(_:)``), answers
/// that are not what the protocol says (``unexpectedResponse(url:status:contentType:snippet:)``),
/// the provider's OAuth errors (``authorization(_:)``, ``token(_:)``) and security checks
/// that failed are separate cases, so a caller can tell "try again" from "sign in again" from
/// "this provider is misconfigured".
public enum OpenIDConnectError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The discovery document's `issuer` is not the issuer it was fetched for (Discovery 1.0 §4.3).
    case issuerMismatch(expected: String, actual: String)
    /// A needed endpoint is neither discovered nor configured (`userinfo_endpoint`, ...).
    case missingEndpoint(String)
    /// The issuer or an endpoint (`name`: `issuer`, `token_endpoint`, `jwks_uri`, ...) is not https,
    /// and the issuer is not loopback: use https, or opt in to plain HTTP (`allowInsecureHTTP`).
    case insecureEndpoint(name: String, url: String)
    /// No HTTP response arrived (network or TLS).
    case http(HTTPClientError)
    /// The response is not the JSON the protocol promises (an HTML error page, garbage, an
    /// unexpected status). `snippet` is the start of the body, for a log, with anything that
    /// looks like a token hidden (`TextRedaction`).
    case unexpectedResponse(url: String, status: Int, contentType: String?, snippet: String)
    /// The authorization endpoint answered with an error (the person refused: `access_denied`).
    case authorization(OAuthError)
    /// The `state` in the response is not the one sent (RFC 6749 §10.12): possible CSRF.
    case stateMismatch
    /// The `iss` in the authorization response is missing or not the issuer (RFC 9207).
    case responseIssuerMismatch(expected: String, actual: String?)
    /// A parameter the response type requires is missing (`code`, `id_token`, `access_token`).
    case missingParameter(String)
    /// A response parameter came from another part of the redirect than the response mode
    /// says (a `code` in the fragment of a query-mode response): possible injection.
    case responseModeMismatch(parameter: String, expected: RedirectCallback.Source, actual: RedirectCallback.Source)
    /// The token endpoint answered with an error (`invalid_grant`: sign in again).
    case token(OAuthError)
    /// The ID token failed validation.
    case idToken(IDTokenError)
    /// The pushed authorization request endpoint (RFC 9126) refused the request
    /// (`invalid_request`, `invalid_client`, `unauthorized_client`...): what it said is the fix.
    case pushedAuthorizationRefused(OAuthError)
    /// A DPoP proof could not be made or the server would not settle on a nonce (``DPoPError``).
    case dpop(DPoPError)
    /// A `private_key_jwt` client could not sign its assertion: fix the key file (``ClientKeyError``).
    case clientKey(ClientKeyError)
    /// A `client_secret_jwt` client's secret is shorter than the hash of its assertion's `alg`
    /// (RFC 7518 §3.2): it cannot key the HMAC. Ask the provider for a longer secret.
    case clientSecretTooShort(alg: String, bytes: Int, needed: Int)
    /// WebFinger issuer discovery (Discovery 1.0 §2) found no issuer for the user (``WebFingerError``).
    case webFinger(WebFingerError)
    /// Dynamic client registration (RFC 7591) failed, or the registered secret expired (``ClientRegistrationError``).
    case registration(ClientRegistrationError)

    public var description: String {
        switch self {
        case .issuerMismatch(let expected, let actual): "discovery document is for issuer '\(actual)', not '\(expected)'"
        case .missingEndpoint(let name): "the provider has no \(name)"
        case .insecureEndpoint(let name, let url):
            "the provider's \(name) \(url) is not https (plain http is only for a loopback issuer): use https, or allow insecure HTTP explicitly for a provider you trust"
        case .http(let error): "\(error)"
        case .unexpectedResponse(let url, let status, let contentType, let snippet):
            "unexpected response from \(url): HTTP \(status), \(contentType ?? "no content type"): \(snippet)"
        case .authorization(let error): "authorization failed: \(error)"
        case .stateMismatch: "the response's state does not match the request's"
        case .responseIssuerMismatch(let expected, let actual): "the response's iss is \(actual.map { "'\($0)'" } ?? "missing"), expected '\(expected)'"
        case .missingParameter(let name): "the response has no \(name)"
        case .responseModeMismatch(let parameter, let expected, let actual):
            "\(parameter) arrived in the \(actual.rawValue), expected in the \(expected.rawValue)"
        case .token(let error): "token request failed: \(error)"
        case .idToken(let error): "invalid ID token: \(error)"
        case .clientKey(let error): "\(error)"
        case .clientSecretTooShort(let alg, let bytes, let needed):
            "client_secret_jwt signs with \(alg), whose key must be at least \(needed) bytes; the client secret has \(bytes)"
        case .dpop(let error): "\(error)"
        case .pushedAuthorizationRefused(let error): "the provider refused the pushed authorization request: \(error)"
        case .webFinger(let error): "\(error)"
        case .registration(let error): "\(error)"
        }
    }
}
