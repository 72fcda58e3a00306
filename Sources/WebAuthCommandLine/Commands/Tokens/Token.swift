import ArgumentParser
import Foundation
import WebAuthSupport
import OpenIDConnect
import WebAuthNetwork
import WebAuthKeyring
import WebAuthExitStatus

/// `webauth token`: a fresh access token (or ID token) for scripts.
package struct Token: AsyncParsableCommand {
    /// The command-line parser makes it.
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print a fresh access token of the saved sign-in (refreshed if it expires within a minute, or --min-valid).",
        discussion: """
            For scripts: curl -H "Authorization: Bearer $(webauth token)" https://api.example.com/ \
            With --scope or --resource (--audience), a token for those alone, through the refresh \
            grant: it is saved apart and never replaces the sign-in's own token or scopes. A refresh \
            token the provider rotates is saved before the token is printed. --format raw (the \
            token), json (access_token, token_type, expires_at, scope: docs/schemas/token.schema.json) \
            or header (Authorization: Bearer ...). Its requests, like those of exec, env and userinfo, \
            go through --proxy, --ca-file and --client-certificate, else the proxy, no_proxy, ca_file \
            and client_certificate of $XDG_CONFIG_HOME/webauth/config.json (~/.config/webauth/config.json) \
            when it names them, else the route the sign-in was made with (login --ca-file, --proxy), \
            else the environment's proxy. \
            While a sign-in broker runs (webauth broker), the token comes from it and no store is \
            read; never with --store, --refresh, --id-token, --dpop, a network flag, or a client \
            secret or key given here.
            """)

    /// How the token is printed.
    package enum Format: String, ExpressibleByArgument, CaseIterable {
        /// The token alone.
        case raw
        /// `access_token`, `token_type`, `expires_at`, `scope` (docs/schemas/token.schema.json).
        case json
        /// An HTTP header line: `Authorization: Bearer …`.
        case header
    }

    @OptionGroup package var access: AccessTokenOptions

    @Flag(help: "Print the ID token instead (refreshed when it expires within --min-valid seconds).")
    package var idToken = false

    @Option(help: "How to print the token: raw, json or header.")
    package var format: Format = .raw

    package func validate() throws {
        guard idToken else { return }
        guard access.target.isSignIn else { throw ValidationError("--id-token cannot take --scope or --resource: the ID token is for this client") }
        guard format != .json else { throw ValidationError("--format json describes an access token: with --id-token, use raw or header") }
    }

    @Option(parsing: .upToNextOption,
            help: ArgumentHelp("For a DPoP-bound sign-in (login --dpop): print the two header lines of your own request METHOD URL instead, 'DPoP: proof' then 'Authorization: DPoP token' (curl -H @file).",
                               valueName: "method url"))
    package var dpop: [String] = []

    package func run() async throws {
        try await reportingFailures(ifInterrupted: "no token was printed", offering: .timeout, profile: access.profile.name) {
            if !dpop.isEmpty { return try await DPoPHeaders(dpop).print(for: access.savedSignIn()) }
            if idToken {
                let manager = try await access.manager()
                let token: IDToken
                do throws(AuthStateError) { token = try await manager.freshIDToken(minimumValidity: access.minimumValidity) } catch { throw CommandFailure(error) }
                print(format == .header ? "Authorization: Bearer \(token.rawValue)" : token.rawValue)
            } else {
                print(Self.formatted(try await access.freshAccessToken(for: .process("standard output")), as: format))
            }
        }
    }

    /// `token` as `format` asks.
    package static func formatted(_ token: AccessToken, as format: Format) -> String {
        switch format {
        case .raw: token.token
        case .header: "Authorization: Bearer \(token.token)"
        case .json:
            JSONValue.object([
                "access_token": .string(token.token), "token_type": .string(token.tokenType),
                "expires_at": token.expiresAt.map { .string(UTCTimestamp.text($0)) } ?? .null,
                "scope": token.scopes.map { .string($0.joined(separator: " ")) } ?? .null,
            ]).description
        }
    }
}
