import ArgumentParser
import Foundation
import OpenIDConnect
import WebAuthSession

/// Where a sign-in is kept: the saved tokens (by profile name) and, unless ephemeral, the
/// provider's cookies in a WebKit profile directory.
struct ProfileOptions: ParsableArguments {
    @Option(help: "Name of the saved sign-in (and of the cookie profile that keeps you signed in to the provider).")
    var profile: String?

    @Flag(help: "Keep no cookies: the provider asks for the password again next time (the default without --profile).")
    var ephemeral = false

    /// The saved sign-in's name.
    var name: String { profile ?? "default" }

    /// The store of the saved sign-in: the Secret Service when one answers, else a file.
    func store() throws(CommandFailure) -> any AuthStateStore {
        do { return try automaticAuthStateStore(name: name) } catch { throw CommandFailure(error) }
    }

    /// Where website data lives for a session.
    func websiteData(environment: [String: String] = ProcessInfo.processInfo.environment) -> WebAuthenticationOptions.WebsiteData {
        guard let profile, !ephemeral else { return .ephemeral }
        let base = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".local/share")
        return .persistent(profileDirectory: base.appendingPathComponent("webauthsession/profiles/\(profile)"))
    }

    /// The saved sign-in, or ``ExitStatus/signInRequired``.
    func savedState() throws(CommandFailure) -> (state: AuthState, store: any AuthStateStore) {
        let store = try store()
        let loaded: AuthState?
        do { loaded = try store.load() } catch { throw CommandFailure(error) }
        guard let state = loaded else { throw CommandFailure(.signInRequired, "no saved sign-in named '\(name)' in \(Self.describe(store))") }
        return (state, store)
    }

    /// `file:PATH` or `secret-service:NAME`.
    static func describe(_ store: any AuthStateStore) -> String {
        if let file = store as? FileAuthStateStore { return "file:" + file.fileURL.path }
        if let secret = store as? SecretServiceAuthStateStore { return "secret-service:" + secret.name }
        return String(describing: type(of: store))
    }
}

/// How the sign-in page is shown.
struct PresentationOptions: ParsableArguments {
    @Flag(help: "Render the page off screen (for login scripts; on a private Xvfb when there is no display).")
    var headless = false

    @Option(help: "Seconds the whole command may take: discovery, the page, the token exchange and every other request.")
    var timeout: Int = 300

    @Flag(help: "Log the engine's navigation decisions (values redacted) on stderr.")
    var verbose = false

    func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    /// The end of `--timeout`, counted from now.
    func deadline() -> CommandDeadline { CommandDeadline(seconds: timeout) }

    /// Session options with these choices and `websiteData`; the page may take what is left of `deadline`.
    func sessionOptions(websiteData: WebAuthenticationOptions.WebsiteData, within deadline: CommandDeadline) -> WebAuthenticationOptions {
        var options = WebAuthenticationOptions()
        options.presentation = headless ? .headless : .window()
        options.timeout = max(deadline.remaining, .milliseconds(1))
        options.websiteData = websiteData
        return options
    }
}
