import ArgumentParser
import Foundation
import OpenIDConnect
import SecretGate

/// Which saved sign-in's access token `token`, `exec` and `env` use, how long it must stay
/// valid, for which scopes and resources, and how long the command may take.
package struct AccessTokenOptions: ParsableArguments {
    /// The command-line parser makes it.
    package init() {}

    @OptionGroup package var profile: TokenProfileOptions
    @OptionGroup package var secret: ClientSecretOptions
    @OptionGroup package var timing: TimeoutOption
    @OptionGroup(title: "Network") package var route: RouteOptions

    @Option(name: .customLong("min-valid"), help: ArgumentHelp("Refresh first when the token expires within this many seconds (default: 60). When that is more than the provider's tokens live, a token is refreshed once it has used a minute (at most half) of its life.", valueName: "seconds"))
    package var minValid: Int?

    @Flag(help: "Refresh now, even when the token is fresh (the provider changed what a token carries, say).")
    package var refresh = false

    @Option(name: .customLong("scope"),
            help: ArgumentHelp("A narrower access token, for these scopes only (repeatable or space-separated), through the refresh grant; kept apart from the sign-in's own.",
                               valueName: "scope"))
    package var scopes: [String] = []

    @Option(name: [.customLong("resource"), .customLong("audience")],
            help: ArgumentHelp("An access token for this resource server (RFC 8707 resource indicator, an absolute URI; repeatable); kept apart from the sign-in's own.",
                               valueName: "uri"))
    package var resources: [String] = []

    package func validate() throws {
        guard (minValid ?? 0) >= 0 else { throw ValidationError("--min-valid must be a number of seconds, 0 or more") }
        if let resource = resources.first(where: { URLComponents(string: $0).map { $0.scheme == nil || $0.fragment != nil } ?? true }) {
            throw ValidationError("--resource \(resource) must be an absolute URI without a fragment, such as https://api.example.com")
        }
    }

    /// The scopes and resources asked for.
    package var target: AccessTokenTarget { AccessTokenTarget(scopes: scopes.isEmpty ? nil : scopes, resources: resources) }

    /// How long the token must stay valid.
    package var minimumValidity: Duration { .seconds(minValid ?? 60) }

    /// The saved sign-in, its requests on the route of the flags, else the default configuration
    /// file, else the sign-in's own, else the environment, within `--timeout` from now.
    package func savedSignIn() async throws(CommandFailure) -> SavedSignIn {
        try await SavedSignIn(profile: profile, secret: secret, route: route, deadline: timing.deadline())
    }

    /// A manager of the saved sign-in, saving refreshes back to its store.
    package func manager() async throws(CommandFailure) -> AuthStateManager {
        try await savedSignIn().manager()
    }

    /// A fresh access token for ``target``, valid for ``minimumValidity`` more, checked by
    /// ``TokenRelease`` before it goes to `recipient`.
    /// A running broker gives it when it can stand in for the saved sign-in (``BrokeredToken``),
    /// except with `--refresh` or a network flag.
    package func freshAccessToken(for recipient: SecretRecipient) async throws(CommandFailure) -> AccessToken {
        if !refresh, route.routesByDefault, let token = try BrokeredToken.fetch(profile: profile, secret: secret, minimumValidity: minValid, target: target, deadline: timing.deadline()) {
            try TokenRelease.check(token.token, profile: profile.name, to: recipient)
            return token
        }
        let manager = try await manager()
        let lifetime = await manager.state.lastTokenResponse?.expiresIn
        // Only a --min-valid asked for is capped: the default minute is the refresh margin itself.
        let minimum = minValid == nil ? minimumValidity : AccessToken.reachableValidity(minimumValidity, lifetime: lifetime)
        let token: AccessToken
        do throws(AuthStateError) {
            if refresh { try await manager.refreshNow() }
            token = try await manager.freshAccessToken(minimumValidity: minimum, scopes: target.scopes, resources: target.resources)
        } catch {
            throw CommandFailure(error)
        }
        if let lifetime, minimum < minimumValidity, let expiresAt = token.expiresAt {
            FileHandle.standardError.write(Data(("Note: the provider's access tokens live \(lifetime) s, less than --min-valid \(minValid ?? 0): "
                + "this one is valid for \(Int(expiresAt.timeIntervalSinceNow)) s more.\n").utf8))
        }
        try TokenRelease.check(token.token, profile: profile.name, to: recipient)
        return token
    }
}
