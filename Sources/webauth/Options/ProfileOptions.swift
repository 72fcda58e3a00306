import ArgumentParser
import Foundation
import OpenIDConnect
import WebAuthSession

/// Which saved sign-in a command uses and where it is kept: what ``ProfileOptions`` (the commands
/// that sign in or out) and ``TokenProfileOptions`` (the commands that only use a sign-in) share.
protocol ProfileChoice: ParsableArguments {
    /// `--profile`.
    var profile: String? { get set }
    /// `--store`.
    var store: StoreChoice? { get }
}

extension ProfileChoice {
    /// The profile asked for: `--profile`, else a non-empty `$WEBAUTH_PROFILE`.
    func chosenProfile(_ environment: [String: String] = CommandEnvironment.original) -> String? {
        profile ?? environment["WEBAUTH_PROFILE"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The saved sign-in's name.
    var name: String { chosenProfile() ?? "default" }

    /// These options for the profile `name` (a credential helper's host mapping chose it).
    func named(_ name: String) -> Self {
        var options = self
        options.profile = name
        return options
    }

    /// The store of the saved sign-in (see ``ProfileStore/forReading(name:choice:)``).
    func store() async throws(CommandFailure) -> any AuthStateStore {
        try await ProfileStore.forReading(name: name, choice: store)
    }

    /// The saved sign-in, for its provider and client (one that registered itself with `webauth
    /// register`, or the last sign-in's): what `login` signs in with again when it is given no
    /// client. `nil` when there is none, or it cannot be read.
    func savedClientState() async -> AuthState? {
        try? await savedState().state
    }

    /// The saved sign-in, or ``ExitStatus/signInRequired``.
    func savedState() async throws(CommandFailure) -> (state: AuthState, store: any AuthStateStore) {
        let store = try await store()
        guard let state = try await ProfileStore.load(name, from: store) else {
            throw CommandFailure(.signInRequired, "no saved sign-in named '\(name)' in \(ProfileStore.describe(store))")
        }
        return (state, store)
    }
}

/// Where a sign-in is kept, for the commands that sign in or out: the saved tokens (by profile
/// name) and, unless ephemeral, the provider's cookies in a WebKit profile directory.
struct ProfileOptions: ProfileChoice {
    @Option(help: "Name of the saved sign-in (and of the cookie profile that keeps you signed in to the provider). Default: $WEBAUTH_PROFILE, else default.")
    var profile: String?

    @Flag(help: "Keep no cookies: the provider asks for the password again next time (the default without --profile).")
    var ephemeral = false

    @Option(help: "Where the sign-in is kept: keyring, file or none (default: the keyring when one can take it, else a file; store in --config).")
    var store: StoreChoice?

    /// Where website data lives for a session.
    func websiteData(environment: [String: String] = CommandEnvironment.original) -> WebAuthenticationOptions.WebsiteData {
        guard let profile = chosenProfile(environment), !ephemeral else { return .ephemeral }
        return .profile(profile, environment: environment)
    }
}

/// Which saved sign-in a command that only uses one reads (`token`, `env`, `exec`, `status`,
/// `userinfo`, the git and Docker helpers): no cookies to keep or drop, no `--config` to name a store.
struct TokenProfileOptions: ProfileChoice {
    @Option(help: "Name of the saved sign-in. Default: $WEBAUTH_PROFILE, else default.")
    var profile: String?

    @Option(help: "Where the sign-in is kept: keyring or file (default: the keyring when one answers, else the file; a sign-in that fell back to its file is found there either way).")
    var store: StoreChoice?
}

/// How the sign-in page is shown.
struct PresentationOptions: ParsableArguments {
    @Flag(help: "Render the page off screen (for login scripts; on a private Xvfb when there is no display).")
    var headless = false

    @Option(help: "Seconds the whole command may take: discovery, the page, the token exchange and every other request.")
    var timeout: Int = 300

    @Flag(help: "Log the engine's navigation decisions (values redacted) on stderr.")
    var verbose = false

    /// What these options give a command, for its advice.
    static let offered: OfferedOptions = [.headless, .timeout, .verbose]

    func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    /// The end of `--timeout`, counted from now.
    func deadline() -> CommandDeadline { CommandDeadline(seconds: timeout) }

    /// Session options with these choices and `websiteData`; the page may take what is left of `deadline`.
    func sessionOptions(websiteData: WebAuthenticationOptions.WebsiteData, within deadline: CommandDeadline) -> WebAuthenticationOptions {
        var options = WebAuthenticationOptions()
        options.presentation = headless ? .headless : .window()
        // A person at the popup may answer a page's passkey request with a USB security key.
        if !headless { options.securityKeys = .system }
        options.timeout = max(deadline.remaining, .milliseconds(1))
        options.websiteData = websiteData
        return options
    }
}
