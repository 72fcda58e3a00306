import BrokerWire
import WebAuthSupport

/// A `webauth login` that a running sign-in broker can do as the engine in this process would:
/// its `SignIn` options, read from the command line. The broker's engine is warm and keeps the
/// account's cookies, so a second sign-in skips the engine's cold start. Any other `login`
/// (below) is `nil` and signs in in-process, in `webauth-engine`.
///
/// Signed in through the broker: `--profile` (or `$WEBAUTH_PROFILE`), `--issuer`, `--client-id`,
/// `--redirect-uri`, `--scope`, `--param`, `--timeout`, `--flow embedded` and `--show-tokens`,
/// in a window (a display is set), with no configuration file that says more than the
/// credential helpers' `credential_hosts`, no proxy in the environment and no
/// `$WEBAUTH_CLIENT_SECRET`. In-process: every other option (`--no-broker` says so on purpose),
/// no profile (an ephemeral sign-in: the broker keeps an account's cookies), no display, help.
/// The broker refuses (`InvalidArgument`, and `webauth-tokens` signs in in-process then) an
/// account saved with what `SignIn` cannot do: another issuer or client, a confidential or
/// registered client, DPoP, a fixed ID-token algorithm.
package struct BrokeredLogin: Equatable {
    /// The account: the profile.
    package let account: String
    /// Whether the summary shows the tokens (`--show-tokens`).
    package let showsTokens: Bool
    /// Seconds the whole sign-in may take (`--timeout`, else `login`'s 300).
    package let timeoutSeconds: Int
    /// `SignIn`'s options (without `handle_token`).
    package let options: [String: BusValue]

    /// The options `login` takes with one value each, the repeatable ones, and its flag.
    private static let single: Set<String> = ["--profile", "--issuer", "--client-id", "--redirect-uri", "--timeout", "--flow"]
    private static let repeatable: Set<String> = ["--scope", "--param"]
    /// The environment variables that give an in-process sign-in what the broker would not use.
    private static let ownSettings = ["WEBAUTH_CLIENT_SECRET", "WEBAUTH_PROXY_PASSWORD", "http_proxy", "https_proxy", "all_proxy", "no_proxy",
                                      "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"]

    /// The sign-in `arguments` (the process's, its name first) ask for in `environment`, when a broker can do it.
    package init?(_ arguments: [String], environment: [String: String]) {
        guard arguments.dropFirst().first == "login",
              let options = OptionList(arguments.dropFirst(2), single: Self.single, repeatable: Self.repeatable, flags: ["--show-tokens"]),
              let account = options["--profile"] ?? environment["WEBAUTH_PROFILE"].flatMap({ $0.isEmpty ? nil : $0 }),
              options["--flow"].map({ $0 == "embedded" }) ?? true,
              GraphicalSession.hasDisplay(environment),
              !Self.ownSettings.contains(where: { environment[$0]?.isEmpty == false }),
              DefaultConfiguration(environment)?.namesOnlyHelperSettings == true,
              SessionBus.address(environment) != nil else { return nil }
        var parameters: [String: String] = [:]
        for pair in options.values["--param"] ?? [] {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else { return nil }
            parameters[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        let timeout = options["--timeout"].map { Int($0) } ?? 300
        guard let timeout, timeout > 0, timeout <= Int(UInt32.max) else { return nil }
        var signIn: [String: BusValue] = ["account": .string(account), "timeout": .uint32(UInt32(timeout))]
        if let issuer = options["--issuer"] { signIn["issuer"] = .string(issuer) }
        if let clientID = options["--client-id"] { signIn["client_id"] = .string(clientID) }
        if let redirectURI = options["--redirect-uri"] { signIn["redirect_uri"] = .string(redirectURI) }
        if let scopes = options.values["--scope"] { signIn["scopes"] = .strings(scopes.flatMap { $0.split(separator: " ").map(String.init) }) }
        if !parameters.isEmpty { signIn["parameters"] = .stringMap(parameters) }
        self.account = account
        showsTokens = options.flags.contains("--show-tokens")
        timeoutSeconds = timeout
        self.options = signIn
    }
}
