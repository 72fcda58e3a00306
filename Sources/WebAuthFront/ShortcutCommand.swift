/// A command line the shortcut may answer, read as `webauth-tokens` reads it; any other (another
/// command or option, an option given twice, a value it would refuse) is `nil`, and the command
/// that runs it answers, errors and help included.
enum ShortcutCommand: Equatable {
    /// How `token` prints the token.
    enum Format: String {
        /// The token alone.
        case raw
        /// `access_token`, `token_type`, `expires_at`, `scope`.
        case json
        /// `Authorization: Bearer …`.
        case header
    }

    /// `webauth --version`.
    case version
    /// `webauth token [--profile NAME] [--min-valid SECONDS] [--format raw|json|header]`.
    case token(profile: String?, minimumValidity: Int?, format: Format)
    /// `webauth kubernetes-credential [--profile NAME]`.
    case kubernetesCredential(profile: String?)
    /// `webauth git-credential get`: git's request on stdin.
    case gitCredential
    /// `docker-credential-webauth get` (or `webauth docker-credential get`): Docker's server URL on stdin.
    case dockerCredential

    /// The command `arguments` (the process's, its name first) give, when the shortcut may answer it.
    init?(_ arguments: [String]) {
        guard let name = arguments.first else { return nil }
        let rest = Array(arguments.dropFirst())
        if name.split(separator: "/").last == "docker-credential-webauth" {
            guard rest == ["get"] else { return nil }
            self = .dockerCredential
            return
        }
        if rest == ["--version"] {
            self = .version
            return
        }
        switch rest.first {
        case "token":
            guard let options = OptionList(rest.dropFirst(), single: ["--profile", "--min-valid", "--format"]) else { return nil }
            let minimumValidity = options["--min-valid"].map { Int($0) }
            guard minimumValidity.map({ ($0 ?? -1) >= 0 }) ?? true,
                  let format = Format(rawValue: options["--format"] ?? "raw") else { return nil }
            self = .token(profile: options["--profile"], minimumValidity: minimumValidity ?? nil, format: format)
        case "kubernetes-credential":
            guard let options = OptionList(rest.dropFirst(), single: ["--profile"]) else { return nil }
            self = .kubernetesCredential(profile: options["--profile"])
        case "git-credential" where rest == ["git-credential", "get"]:
            self = .gitCredential
        case "docker-credential" where rest == ["docker-credential", "get"]:
            self = .dockerCredential
        default:
            return nil
        }
    }

    /// The profile the command names: `--profile`, else a non-empty `$WEBAUTH_PROFILE`, else
    /// `default` (the credential helpers take theirs from `credential_hosts`).
    func profile(_ environment: [String: String]) -> String {
        let given: String? = switch self {
        case .version, .gitCredential, .dockerCredential: nil
        case .token(let profile, _, _), .kubernetesCredential(let profile): profile
        }
        return given ?? environment["WEBAUTH_PROFILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
    }
}
