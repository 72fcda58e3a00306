import ArgumentParser
import Foundation
import OpenIDConnect

/// What `git-credential` and `docker-credential` share: where `credential_hosts` is, and the
/// saved sign-in that answers for a host.
struct CredentialHelperOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The configuration file with credential_hosts, proxy, no_proxy and ca_file (default: $XDG_CONFIG_HOME/webauth/config.json).",
                               valueName: "file"))
    var config: String?

    @OptionGroup var profile: ProfileOptions
    @OptionGroup var secret: ClientSecretOptions

    /// The `credential_hosts` of the configuration file.
    func hosts() throws(CommandFailure) -> CredentialHosts {
        try CredentialHosts(config: config)
    }

    /// The saved sign-in that serves `host` (as `hosts` maps it), opened for use; nil when the
    /// host is not this helper's.
    func manager(for host: String, in hosts: CredentialHosts) async throws(CommandFailure) -> AuthStateManager? {
        guard let name = hosts.profile(for: host, only: profile.profile, fallback: profile.name) else { return nil }
        let network = try NetworkSettings.unflagged(config: config, environment: ProcessInfo.processInfo.environment)
        return try await SavedSignIn(profile: profile.named(name), secret: secret, network: network).manager()
    }

    /// Answers `erase` (the access token expires, the refresh token stays) or `get` (`answer` gets a fresh access token).
    static func serve(erase: Bool, with manager: AuthStateManager, answer: (String) -> Void) async throws(CommandFailure) {
        do throws(AuthStateError) {
            if erase { return try await manager.expireAccessToken() }
            answer(try await manager.freshAccessToken())
        } catch { throw CommandFailure(error) }
    }
}
