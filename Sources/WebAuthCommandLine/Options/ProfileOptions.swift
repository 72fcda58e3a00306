import ArgumentParser
import Foundation
import OpenIDConnect
import WebAuthNetwork
import WebAuthKeyring
import WebAuthExitStatus

/// Which saved sign-in a command uses and where it is kept: what ``ProfileOptions`` (the commands
/// that sign in or out) and ``TokenProfileOptions`` (the commands that only use a sign-in) share.
package protocol ProfileChoice: ParsableArguments {
    /// `--profile`.
    var profile: String? { get set }
    /// `--store`.
    var store: StoreChoice? { get }
}

extension ProfileChoice {
    /// The profile asked for: `--profile`, else a non-empty `$WEBAUTH_PROFILE`.
    package func chosenProfile(_ environment: [String: String] = CommandEnvironment.original) -> String? {
        profile ?? environment["WEBAUTH_PROFILE"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The saved sign-in's name.
    package var name: String { chosenProfile() ?? "default" }

    /// These options for the profile `name` (a credential helper's host mapping chose it).
    package func named(_ name: String) -> Self {
        var options = self
        options.profile = name
        return options
    }

    /// The store of the saved sign-in (see ``ProfileStore/forReading(name:choice:)``).
    package func store() async throws(CommandFailure) -> any AuthStateStore {
        try await ProfileStore.forReading(name: name, choice: store)
    }

    /// The saved sign-in, for its provider and client (one that registered itself with `webauth
    /// register`, or the last sign-in's): what `login` signs in with again when it is given no
    /// client. `nil` when there is none, or it cannot be read.
    package func savedClientState() async -> AuthState? {
        try? await savedState().state
    }

    /// The saved sign-in, or ``ExitStatus/signInRequired``.
    package func savedState() async throws(CommandFailure) -> (state: AuthState, store: any AuthStateStore) {
        let store = try await store()
        guard let state = try await ProfileStore.load(name, from: store) else {
            throw CommandFailure(.signInRequired, "no saved sign-in named '\(name)' in \(ProfileStore.describe(store))")
        }
        return (state, store)
    }
}

/// Where a sign-in is kept, for the commands that sign in or out: the saved tokens (by profile
/// name) and, unless ephemeral, the provider's cookies in a WebKit profile directory.
package struct ProfileOptions: ProfileChoice {
    /// The command-line parser makes it.
    package init() {}

    @Option(help: "Name of the saved sign-in (and of the cookie profile that keeps you signed in to the provider). Default: $WEBAUTH_PROFILE, else default.")
    package var profile: String?

    @Flag(help: "Keep no cookies: the provider asks for the password again next time (the default without --profile).")
    package var ephemeral = false

    @Option(help: "Where the sign-in is kept: keyring, file or none (default: the keyring when one can take it, else a file; store in --config).")
    package var store: StoreChoice?
}

/// Which saved sign-in a command that only uses one reads (`token`, `env`, `exec`, `status`,
/// `userinfo`, the git and Docker helpers): no cookies to keep or drop, no `--config` to name a store.
package struct TokenProfileOptions: ProfileChoice {
    /// The command-line parser makes it.
    package init() {}

    @Option(help: "Name of the saved sign-in. Default: $WEBAUTH_PROFILE, else default.")
    package var profile: String?

    @Option(help: "Where the sign-in is kept: keyring or file (default: the keyring when one answers, else the file; a sign-in that fell back to its file is found there either way).")
    package var store: StoreChoice?
}

/// How the sign-in page is shown.
package struct PresentationOptions: ParsableArguments {
    /// The command-line parser makes it.
    package init() {}

    @Flag(help: "Render the page off screen (for login scripts; on a private Xvfb when there is no display).")
    package var headless = false

    @Option(help: "Seconds the whole command may take: discovery, the page, the token exchange and every other request.")
    package var timeout: Int = 300

    @Flag(help: "Log the engine's navigation decisions, page loads and failed loads (values redacted) on stderr.")
    package var verbose = false

    /// What these options give a command, for its advice.
    package static let offered: OfferedOptions = [.headless, .timeout, .verbose]

    package func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    /// The end of `--timeout`, counted from now.
    package func deadline() -> CommandDeadline { CommandDeadline(seconds: timeout) }

}
