import BrokerWire
import Foundation
import SecretGate
import WebAuthSupport

/// What `webauth` answers itself, before any large library is loaded: `--version`, and `token`,
/// `kubernetes-credential` and the git and Docker helpers' `get` when the running broker, the saved
/// sign-in's file or its keyring item holds a token that is still fresh. It answers only what
/// `webauth-tokens` would answer with the same bytes; for anything else (a refresh, a secret or a
/// route to find, an option it does not take, a site `credential_hosts` does not map, any error) it
/// answers nothing, and the process becomes the executable that runs the command (``CommandRoute``),
/// given back what it read of stdin.
package enum TokenShortcut {
    /// What the shortcut made of a command line.
    package enum Outcome: Equatable {
        /// The command's output (its last line without the newline).
        case answered(String)
        /// The executable that runs the command must, with `standardInput` (what the shortcut read
        /// of it, if anything) on stdin.
        case handOver(standardInput: Data?)
    }

    /// How long the shortcut waits for the broker, which answers a fresh token from memory at once:
    /// a broker still refreshing then is asked again by `webauth-tokens`, within the command's own time.
    static let brokerWait: Int32 = 5_000

    /// The refresh margin of the token commands without `--min-valid`, in seconds.
    static let defaultMinimumValidity = 60

    /// What to do with `arguments` (the process's, its name first); a credential helper's request
    /// is read from `standardInput`.
    package static func answer(_ arguments: [String], environment: [String: String], standardInput: FileHandle = .standardInput,
                               now: Date = Date()) -> Outcome {
        guard let command = ShortcutCommand(arguments) else { return .handOver(standardInput: nil) }
        switch command {
        case .gitCredential, .dockerCredential:
            // The file first: with one in doubt, stdin is left for webauth-tokens as it is.
            guard let configuration = DefaultConfiguration(environment) else { return .handOver(standardInput: nil) }
            guard let input = standardInput.readToEndRetryingInterruptions() else { return .handOver(standardInput: Data()) }
            let answer = command == .gitCredential ? GitRequest(input)?.answer(configuration, environment: environment, now: now)
                : DockerRequest(input)?.answer(configuration, environment: environment, now: now)
            return answer.map { .answered($0) } ?? .handOver(standardInput: input)
        default:
            return answer(command, environment: environment, now: now).map { .answered($0) } ?? .handOver(standardInput: nil)
        }
    }

    /// The output of `command`, which reads no stdin, or `nil` to hand it over.
    private static func answer(_ command: ShortcutCommand, environment: [String: String], now: Date) -> String? {
        let profile = command.profile(environment)
        switch command {
        case .version:
            return WebAuthVersion.current
        case .token(_, let minimumValidity, let format):
            return freshToken(of: profile, minimumValidity: minimumValidity, environment: environment, now: now,
                              configuration: DefaultConfiguration(environment))
                .flatMap { released($0, of: profile, to: .process("standard output")) }?.line(format)
        case .kubernetesCredential:
            guard let apiVersion = KubernetesExecInfo.apiVersion(environment["KUBERNETES_EXEC_INFO"]) else { return nil }
            return freshToken(of: profile, minimumValidity: nil, environment: environment, now: now, configuration: DefaultConfiguration(environment))
                .flatMap { released($0, of: profile, to: .process("the Kubernetes client")) }?.execCredential(apiVersion: apiVersion)
        case .gitCredential, .dockerCredential:
            return nil
        }
    }

    /// `token`, if the one policy lets it go to `recipient` (as `webauth-tokens` asks).
    static func released(_ token: FreshToken, of profile: String, to recipient: SecretRecipient) -> FreshToken? {
        (try? TokenText.check(token.token, as: .accessToken(profile: profile), to: recipient)).map { token }
    }

    /// The access token of `profile` that stays valid for `minimumValidity` seconds more (the
    /// commands' minute when `nil`): the running broker's, else the saved sign-in's (its file, else
    /// its keyring item). `configuration` is read only when the saved sign-in is.
    static func freshToken(of profile: String, minimumValidity: Int?, environment: [String: String], now: Date,
                           configuration: @autoclosure () -> DefaultConfiguration?) -> FreshToken? {
        switch brokerToken(of: profile, minimumValidity: minimumValidity, environment: environment) {
        case .answered(let token): return token
        case .handOver: return nil
        case .noBroker: break
        }
        // A configuration file can name the route of a refresh, which `webauth-tokens` checks
        // before it uses even a fresh token: it answers then.
        guard configuration() != nil, let saved = SavedSignIn(profile: profile, environment: environment) else { return nil }
        if let minimumValidity, let lifetime = saved.lifetime, lifetime > 0, minimumValidity > lifetime { return nil }  // capped, with a note
        return saved.token.isValid(for: minimumValidity ?? defaultMinimumValidity, after: now) ? saved.token : nil
    }

    /// What the broker's `GetToken` means for the shortcut.
    private enum BrokerAnswer {
        /// Its token.
        case answered(FreshToken)
        /// No broker could serve it: the saved sign-in answers, as for `webauth-tokens`.
        case noBroker
        /// The broker's own error, or no answer in time: `webauth-tokens` asks again and reports it.
        case handOver
    }

    /// `GetToken` of the running broker, when `webauth-tokens` would ask it (no client secret or PIN
    /// in the environment, a profile the broker can name) with the options it would send.
    private static func brokerToken(of profile: String, minimumValidity: Int?, environment: [String: String]) -> BrokerAnswer {
        guard !["WEBAUTH_CLIENT_SECRET", "WEBAUTH_PKCS11_PIN"].contains(where: { environment[$0] != nil }),
              (try? AccountName.checked(profile)) != nil else { return .noBroker }
        var options: [String: BusValue] = ["account": .string(profile)]
        if let minimumValidity { options["min_valid"] = .uint32(UInt32(clamping: minimumValidity)) }
        switch BrokerTokenCall.ask(options, environment: environment, timeoutMilliseconds: brokerWait) {
        case .results(let results):
            guard case .string(let token)? = results["access_token"], !token.isEmpty else { return .noBroker }
            var tokenType = "Bearer", expiresAt: Date?, scopes: [String]?
            if case .string(let type)? = results["token_type"] { tokenType = type }
            if case .int64(let seconds)? = results["expires_at"] { expiresAt = Date(timeIntervalSince1970: Double(seconds)) }
            if case .strings(let granted)? = results["scopes"] { scopes = granted }
            return .answered(FreshToken(token: token, tokenType: tokenType, expiresAt: expiresAt, scopes: scopes))
        case .noBroker, .refused(.failed, _), .refused(.accessDenied, _): return .noBroker
        case .refused, .timedOut: return .handOver
        }
    }
}
