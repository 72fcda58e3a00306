import Foundation
import OpenIDConnect
import WebAuthn

/// A scripted login: steps run in order against the real page, for test harnesses and CI.
///
/// ```swift
/// let script = LoginScript([
///     .fill("#username", .literal("alice")),
///     .fill("#password", .environment("ALICE_PASSWORD")),
///     .click("#sign-in"),
/// ])
/// let result = try await client.signIn(options: options, script: script.runner())
/// ```
///
/// The CLI reads the same steps from JSON or YAML (`webauth login --script login.yaml`):
/// ```yaml
/// steps:
///   - fill: "#username"
///     value: alice
///   - fill: "#password"
///     env: ALICE_PASSWORD
///   - click: "#sign-in"
/// ```
/// A step that fails stops the script with ``LoginScriptError``, naming the step. Values are
/// never logged; a literal value typed into a password field is refused (secrets come from the
/// environment, a file or a command). A secret is typed only into a page of the provider's host
/// (the host the session started on, or one listed in ``secretHosts``) served over `https` or
/// from a loopback host. The steps run in an isolated JavaScript world, so a value never
/// passes through the page's globals; only a ``LoginStep/javaScript(_:)`` step runs in the
/// page's own world.
///
/// A script that has done its last step watches the page: if nothing loads or navigates for
/// ``settleTimeout`` and no redirect came (a wrong password, a page the script does not
/// handle), the sign-in fails at once with ``WebAuthenticationError/pageSettled(_:after:)``,
/// which quotes the page's error message, instead of waiting out the session's timeout.
public struct LoginScript: Sendable, Hashable, Decodable {
    /// The steps, in order.
    public var steps: [LoginStep]
    /// How long a step waits for its element, URL or text. Default: 30 seconds.
    public var stepTimeout: Duration
    /// Hosts besides the provider's (the host the session started on) whose pages may receive
    /// secrets: an upstream identity provider the login passes through. Default: none.
    public var secretHosts: Set<String>
    /// How long the page may stay still after the last step before the sign-in fails with
    /// ``WebAuthenticationError/pageSettled(_:after:)``; nil waits for the session's timeout (a
    /// page that waits for a person, or a phone). Default: 10 seconds.
    public var settleTimeout: Duration?
    /// How long an ``LoginStep/optional(_:timeout:)`` step waits for its element before it is
    /// skipped, unless it says otherwise. Default: 3 seconds.
    public var optionalTimeout: Duration
    /// What answers a page that asks for HTTP authentication (Basic, Digest), once per realm;
    /// without it a headless session fails with
    /// ``WebAuthenticationError/httpAuthenticationFailed(host:realm:)`` at such a page.
    public var httpAuthentication: HTTPAuthenticationCredentials?
    /// The virtual authenticator that answers the page's passkey and security-key requests while
    /// this script drives it (`passkey:`): its credentials file and how it behaves. Without it a
    /// page's request gets `NotAllowedError`, and a page that settles on its passkey prompt ends
    /// the sign-in with ``WebAuthenticationError/passkeyRequested(operation:relyingParty:pageText:)``.
    /// It signs only for the provider's host and ``secretHosts``. Default: none.
    public var passkey: VirtualAuthenticatorSettings?
    /// The values ``LoginValue/variable(_:)`` steps read, by name: one batch entry's (`webauth
    /// batch`), each a literal or a source read when typed. Nil (the default) outside a batch, where
    /// such a step fails naming its variable. Never read from the script file.
    public var variables: [String: LoginValue]?

    /// A script of `steps`.
    public init(_ steps: [LoginStep], stepTimeout: Duration = .seconds(30), secretHosts: Set<String> = [],
                settleTimeout: Duration? = .seconds(10), optionalTimeout: Duration = .seconds(3),
                httpAuthentication: HTTPAuthenticationCredentials? = nil, passkey: VirtualAuthenticatorSettings? = nil) {
        self.steps = steps
        self.passkey = passkey
        self.httpAuthentication = httpAuthentication
        self.stepTimeout = stepTimeout
        self.secretHosts = secretHosts
        self.settleTimeout = settleTimeout
        self.optionalTimeout = optionalTimeout
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case steps, stepTimeout = "step_timeout", secretHosts = "secret_hosts", settleTime = "settle_time"
        case optionalTimeout = "optional_timeout", httpAuthentication = "http_auth", passkey
    }

    /// Reads `{steps: [...], step_timeout: SECONDS, secret_hosts: [HOST, ...], settle_time: SECONDS,
    /// optional_timeout: SECONDS, http_auth: {username: NAME, password: {env: VAR}}, passkey: {credentials_file: PATH, ...}}`
    /// (`settle_time: 0`: wait for the session's timeout).
    /// An unknown key is an error that names the closest known one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
        steps = try container.decode([LoginStep].self, forKey: .steps)
        secretHosts = Set(try container.decodeIfPresent([String].self, forKey: .secretHosts) ?? [])
        let seconds = try container.decodeIfPresent(Double.self, forKey: .stepTimeout) ?? 30
        guard seconds > 0 else {
            throw DecodingError.dataCorruptedError(forKey: .stepTimeout, in: container, debugDescription: "step_timeout must be positive")
        }
        guard let stepTimeout = ScriptSeconds.duration(seconds) else {
            throw DecodingError.dataCorruptedError(forKey: .stepTimeout, in: container, debugDescription: "step_timeout \(ScriptSeconds.tooLong)")
        }
        self.stepTimeout = stepTimeout
        let settle = try container.decodeIfPresent(Double.self, forKey: .settleTime) ?? 10
        guard settle >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: .settleTime, in: container, debugDescription: "settle_time must not be negative")
        }
        guard settle <= ScriptSeconds.maximum else {
            throw DecodingError.dataCorruptedError(forKey: .settleTime, in: container, debugDescription: "settle_time \(ScriptSeconds.tooLong)")
        }
        settleTimeout = Self.settleTimeout(seconds: settle)
        let optional = try container.decodeIfPresent(Double.self, forKey: .optionalTimeout) ?? 3
        guard optional > 0 else {
            throw DecodingError.dataCorruptedError(forKey: .optionalTimeout, in: container, debugDescription: "optional_timeout must be positive")
        }
        guard let optionalTimeout = ScriptSeconds.duration(optional) else {
            throw DecodingError.dataCorruptedError(forKey: .optionalTimeout, in: container, debugDescription:
                "optional_timeout \(ScriptSeconds.tooLong)")
        }
        self.optionalTimeout = optionalTimeout
        httpAuthentication = try container.decodeIfPresent(HTTPAuthenticationCredentials.self, forKey: .httpAuthentication)
        passkey = container.contains(.passkey) ? try VirtualAuthenticatorSettings.decode(from: container.superDecoder(forKey: .passkey)) : nil
    }

    /// The names of the variables the script's steps and `http_auth` read (``LoginValue/variable(_:)``).
    public var variableNames: Set<String> {
        func names(_ steps: [LoginStep]) -> [String] {
            steps.flatMap { step -> [String] in
                switch step {
                case .fill(_, .variable(let name)), .type(_, .variable(let name)): [name]
                case .optional(let inner, _): names([inner])
                case .when(_, let inner): names(inner)
                default: []
                }
            }
        }
        var all = Set(names(steps))
        if case .variable(let name)? = httpAuthentication?.password { all.insert(name) }
        return all
    }

    /// A settle timeout of `seconds`; 0 means none (wait for the session's timeout), and so does a
    /// number that is not from 0 to ``ScriptSeconds/maximum`` (the callers refuse those first).
    package static func settleTimeout(seconds: Double) -> Duration? {
        seconds > 0 ? ScriptSeconds.duration(seconds) : nil
    }
}
