import ArgumentParser
import Foundation
import OpenIDConnect
import WebAuthSession
import Yams

/// `webauth login`: sign in through the embedded engine, save the sign-in, print a summary.
struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sign in to an OpenID Connect provider and save the sign-in.",
        discussion: """
            Shows the provider's login page (in a window, or headless with --headless), catches the \
            redirect, exchanges the code with PKCE, validates the ID token, saves the sign-in (the \
            Secret Service when available, else a 0600 file under $XDG_STATE_HOME/webauthsession), \
            and prints a JSON summary: subject, scopes, access-token expiry, ID-token claims. Tokens \
            are printed only with --show-tokens.
            """)

    @OptionGroup(title: "Provider and client") var client: ClientOptions

    @Option(name: .customLong("scope"), help: "A scope to ask for (repeatable, or space-separated). Default: openid profile offline_access.")
    var scopes: [String] = []

    @Option(name: .customLong("param"), help: ArgumentHelp("An extra authorization parameter (repeatable), e.g. acr_values=idp:google or prompt=login.",
                                                           valueName: "name=value"))
    var parameters: [String] = []

    @Option(help: "The response type: code, id_token, id_token token, code id_token, token.")
    var responseType: String = "code"

    @Option(help: ArgumentHelp("A login script (JSON or YAML) to fill the page; secrets come from the environment.", valueName: "file"))
    var script: String?

    @OptionGroup(title: "Presentation") var presentation: PresentationOptions
    @OptionGroup(title: "Saved sign-in") var profile: ProfileOptions

    @Flag(help: "Also print the access, refresh and ID tokens.")
    var showTokens = false

    func run() async throws {
        try await reportingFailures {
            let narrator = Narrator(verbose: presentation.verbose, quiet: true)
            let settings = try client.resolve()
            let loginScript = try script.map { path throws(CommandFailure) in try Self.loadScript(path) }
            guard let responseType = AuthorizationRequest.ResponseType(rawValue: responseType) else {
                throw CommandFailure(.usage, "unknown response type '\(responseType)'")
            }
            let store = try profile.store()
            let verbose = presentation.verbose
            let result: SignInResult
            do {
                result = try await narrator.waiting(for: "the sign-in") {
                    try await settings.client.signIn(
                        scopes: scopes.isEmpty ? settings.scopes ?? ["openid", "profile", "offline_access"]
                            : scopes.flatMap { $0.split(separator: " ").map(String.init) },
                        responseType: responseType,
                        additionalParameters: settings.parameters.merging(try Self.parameters(parameters)) { $1 },
                        options: presentation.sessionOptions(websiteData: profile.websiteData())) { session in
                            narrator.follow(session)
                            try await loginScript?.run(in: session) { number, step in
                                if verbose { narrator.say("step \(number): \(step)") }
                            }
                        }
                }
            } catch let error as SignInError {
                throw CommandFailure(error)
            }
            let state = result.authState
            do throws(AuthStateStoreError) { try store.save(state) } catch { throw CommandFailure(error) }
            print(SignInSummary.json(state, store: ProfileOptions.describe(store), showTokens: showTokens).description)
        }
    }

    /// `name=value` pairs.
    static func parameters(_ pairs: [String]) throws(CommandFailure) -> [String: String] {
        var parameters: [String: String] = [:]
        for pair in pairs {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw CommandFailure(.usage, "--param '\(pair)' is not name=value")
            }
            parameters[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        return parameters
    }

    /// Reads a login script; JSON is read as YAML, of which it is a subset.
    static func loadScript(_ path: String) throws(CommandFailure) -> LoginScript {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw CommandFailure(.usage, "cannot read the login script \(path): \(error.localizedDescription)")
        }
        do { return try YAMLDecoder().decode(LoginScript.self, from: text) } catch {
            throw CommandFailure(.usage, "the login script \(path) is not valid: \(Self.reason(error))")
        }
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): context.debugDescription
        case DecodingError.keyNotFound(let key, _): "missing '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let context): "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        default: String(describing: error)
        }
    }
}
