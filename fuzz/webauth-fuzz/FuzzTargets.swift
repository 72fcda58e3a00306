import Foundation
import OpenIDConnect
import SignInFiles

/// The parsers that read what a provider, a page or a user's file sends, each as a fuzz target:
/// any input must end in a value or a typed error, never a crash or a hang.
enum FuzzTarget: String, CaseIterable {
    /// A redirect URI, then a candidate URL (first line, rest): parsing and exact matching.
    case redirect
    /// A callback URL, then a form body: the parameters of an authorization response.
    case callback
    /// The discovery, token and userinfo documents.
    case documents
    /// An ID token checked against a fixed key set.
    case idToken = "id-token"
    /// A login script as the CLI reads a `--script` file (YAML), then what the script names.
    case loginScriptYAML = "login-script-yaml"
    /// A login script as JSON: through the CLI's file entry (JSON is YAML) and `JSONDecoder`.
    case loginScriptJSON = "login-script-json"
    /// A batch file (`webauth batch FILE`), then its shards.
    case batch
    /// The configuration file (`--config`: JSON or a property list), then every key it may hold.
    case config
    /// The device authorization endpoint's answer, and the token endpoint's answers to a poll.
    case deviceAuthorization = "device-authorization"
    /// The pushed authorization request endpoint's answer.
    case par
    /// What git and Docker write to a credential helper's stdin, through the gate.
    case credentialHelper = "credential-helper"
    /// `credential_hosts` keys (one per line, with a profile), then sites asked of the map.
    case credentialHosts = "credential-hosts"
    /// The broker's `a{sv}` options, serialized and as GVariant text.
    case brokerOptions = "broker-options"
    /// CTAPHID reports and CTAP2 CBOR to the software security key, then CBOR, COSE keys and
    /// authenticator data.
    case ctap
    /// A page's WebAuthn options, and responses a relying party verifies.
    case webAuthn = "webauthn"

    /// The target named by `$WEBAUTH_FUZZ_TARGET` (default: all of them, one after another).
    static let selected: [FuzzTarget] = ProcessInfo.processInfo.environment["WEBAUTH_FUZZ_TARGET"]
        .flatMap { FuzzTarget(rawValue: $0) }.map { [$0] } ?? allCases

    static let callbackRedirect = try! RedirectURI("com.example.app:/oauth2redirect")

    func run(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        let (first, rest) = Self.split(text)
        switch self {
        case .redirect:
            if let uri = try? RedirectURI(first) { _ = uri.matches(rest) }
            if let uri = try? RedirectURI(first, portMatching: .anyPort) { _ = uri.matches(rest) }
        case .callback:
            _ = try? RedirectCallback(url: first, formBody: rest.isEmpty ? nil : rest, redirectURI: Self.callbackRedirect)
            if let loopback = try? RedirectURI("http://127.0.0.1:8765/cb") { _ = try? RedirectCallback(url: first, redirectURI: loopback) }
        case .documents:
            _ = try? JSONDecoder().decode(ProviderConfiguration.self, from: data)
            _ = try? JSONDecoder().decode(TokenResponse.self, from: data)
            _ = try? JSONValue(parsing: text)
            _ = try? FormURLEncoding.decode(text)
        case .idToken:
            IDTokenFuzzing.validate(data)
        case .loginScriptYAML:
            FileFormatFuzzing.loginScript(text)
        case .loginScriptJSON:
            FileFormatFuzzing.loginScript(text)
            _ = try? JSONDecoder().decode(LoginScript.self, from: data)
        case .batch:
            FileFormatFuzzing.batch(text)
        case .config:
            FileFormatFuzzing.configuration(data)
        case .deviceAuthorization:
            EndpointFuzzing.deviceAuthorization(data)
        case .par:
            EndpointFuzzing.pushedAuthorization(data)
        case .credentialHelper:
            CredentialHelperFuzzing.requests(data)
        case .credentialHosts:
            CredentialHelperFuzzing.hostMap(text)
        case .brokerOptions:
            BrokerOptionsFuzzing.options(data)
        case .ctap:
            PasskeyFuzzing.ctap(data)
        case .webAuthn:
            PasskeyFuzzing.webAuthn(data)
        }
    }

    private static func split(_ text: String) -> (String, String) {
        guard let newline = text.firstIndex(of: "\n") else { return (text, "") }
        return (String(text[..<newline]), String(text[text.index(after: newline)...]))
    }
}

/// ID-token validation against an in-memory key set (no network): the validator's HTTP client
/// answers the JWKS request itself.
enum IDTokenFuzzing {
    struct FixedKeys: HTTPClient {
        func send(_ request: HTTPRequest) async throws(HTTPClientError) -> HTTPResponse {
            HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(jwks.utf8))
        }
    }

    /// A public P-256 key (the private half is not needed: no valid token is expected).
    static let jwks = """
        {"keys":[{"kty":"EC","crv":"P-256","kid":"k1","alg":"ES256","use":"sig",
        "x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}]}
        """

    static let validator = try! IDTokenValidator(
        configuration: ProviderConfiguration(issuer: "https://id.example.com", authorizationEndpoint: URL(string: "https://id.example.com/a")!,
                                             tokenEndpoint: URL(string: "https://id.example.com/t")!,
                                             jwksURI: URL(string: "https://id.example.com/jwks")!),
        clientID: "client", http: FixedKeys())

    /// Validates the token `data` and waits for the answer (the validator is async; libFuzzer is not).
    static func validate(_ data: Data) {
        runBlocking(data) { data in _ = try? await validator.validate(String(decoding: data, as: UTF8.self), nonce: "n") }
    }
}
