import ArgumentParser
import Foundation
import OpenIDConnect
import SecretGate
import SignInFiles

/// What `git-credential` and `docker-credential` share: where `credential_hosts` is, the gate it
/// makes, and the saved sign-in that answers for a site.
package struct CredentialHelperOptions: ParsableArguments {
    /// The command-line parser makes it.
    package init() {}

    @Option(help: ArgumentHelp("The configuration file with credential_hosts, proxy, no_proxy and ca_file (default: $XDG_CONFIG_HOME/webauth/config.json).",
                               valueName: "file"))
    package var config: String?

    @OptionGroup package var profile: TokenProfileOptions
    @OptionGroup package var secret: ClientSecretOptions
    @OptionGroup package var timing: TimeoutOption
    @OptionGroup(title: "Network") package var route: RouteOptions

    /// The gate for access tokens: the `credential_hosts` of the configuration file (none: no site gets one).
    /// - Throws: ``CommandFailure`` (usage): the file cannot be read, or a key is not a site a token may go to.
    package func gate() throws(CommandFailure) -> SecretGate {
        let file = try ConfigurationFile.chosen(config, environment: CommandEnvironment.original)
        do { return SecretGate(credentialHosts: try CredentialHostMap(try file?.parameters("credential_hosts") ?? [:])) } catch let error as CredentialHostMap.EntryError {
            throw CommandFailure(.usage, "credential_hosts in \(file?.path ?? "the configuration file"): \(error)")
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(.usage, "\(error)")
        }
    }

    /// The profile whose token `site` may have, as `gate` says (and only `--profile` when given);
    /// `nil` when none. When no site could ever get one (nothing is mapped) or the site is not
    /// private (plain http to another host), `helper` says why in one line on stderr.
    package func profile(for site: SecretRecipient, in gate: SecretGate, helper: String) -> String? {
        do { return try gate.tokenProfile(for: site, only: profile.profile) } catch {
            switch error.reason {
            case .noCredentialHosts:
                let file = config ?? ConfigurationFile.defaultPath(CommandEnvironment.original)
                Self.say("\(helper): no credential for \(site): no host is mapped to a profile; if this host should get your token, "
                    + "add \"credential_hosts\": {\"\(site.hostAndPort)\": \"\(profile.name)\"} to \(file)")
            case .notPrivate:
                Self.say("\(helper): \(error)")
            default:
                break  // another helper's host: git and Docker ask the next one
            }
            return nil
        }
    }

    /// The saved sign-in of `name`, opened for use.
    package func manager(profile name: String) async throws(CommandFailure) -> AuthStateManager {
        try await SavedSignIn(profile: profile.named(name), secret: secret, route: route, config: config, deadline: timing.deadline()).manager()
    }

    /// Answers `get`: a fresh access token of `name` for `site`, checked by ``TokenRelease``; from
    /// a running broker when it can stand in for the saved sign-in (``BrokeredToken``: the route
    /// of the default configuration file and the sign-in's, so not with another `--config` or a
    /// network flag).
    package func token(of name: String, for site: SecretRecipient) async throws(CommandFailure) -> String {
        let token: String
        if usesDefaultConfiguration, route.routesByDefault,
           let brokered = try BrokeredToken.fetch(profile: profile.named(name), secret: secret, minimumValidity: nil, target: .signIn, deadline: timing.deadline()) {
            token = brokered.token
        } else {
            let manager = try await manager(profile: name)
            do throws(AuthStateError) { token = try await manager.freshAccessToken() } catch { throw CommandFailure(error) }
        }
        try TokenRelease.check(token, profile: name, to: site)
        return token
    }

    /// Whether `--config` is not given or names the default file.
    private var usesDefaultConfiguration: Bool {
        let standard = ConfigurationFile.defaultPath(CommandEnvironment.original)
        return config.map { URL(fileURLWithPath: $0).standardizedFileURL.path == URL(fileURLWithPath: standard).standardizedFileURL.path } ?? true
    }

    /// Answers `erase`: the access token of `name` expires (the refresh token stays), and with
    /// `failed`, only if it is that token.
    package func erase(_ name: String, failed: String?) async throws(CommandFailure) {
        let manager = try await manager(profile: name)
        do throws(AuthStateError) { try await manager.expireAccessToken(ifItIs: failed) } catch { throw CommandFailure(error) }
    }

    private static func say(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
