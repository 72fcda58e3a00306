import ArgumentParser
import Foundation
import OpenIDConnect
import WebAuthSession
import WebAuthCommandLine
import WebAuthSupport

/// `webauth record`: the person signs in once in the window; the engine writes the login script
/// that replays that sign-in headless.
struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record a login script by signing in once in the window.",
        discussion: """
            Opens the provider's login page in a window, with the same provider and client options as \
            login. Sign in as usual: clicks, typed text, Enter, checkboxes and choices on every page up \
            to the redirect are recorded (in the top frame; iframes and closed shadow roots are out of \
            scope, and said to be), with selectors checked unique on their page and a wait for each \
            element the page enabled late. When the redirect comes, the script is written to --output \
            (atomically, mode 0600) and nothing is saved. No secret is written: a password becomes \
            {env: NAME}, a one-time code a totp: {secret_env: NAME} placeholder, a passkey prompt a \
            passkey: block for the virtual authenticator, other typed text {var: NAME} unless \
            --keep-values; the lines printed at the end say what to export. A consent or "stay signed \
            in?" screen is marked as one that may not come back (--one-off). Replay with webauth login \
            --headless --script FILE. With --check FILE, the script is replayed once in the window instead, \
            a step at a time: each step runs when you press Enter.
            """)

    @OptionGroup(title: "Provider and client") var client: ClientOptions
    @OptionGroup var request: AuthorizationRequestOptions

    @Option(name: [.short, .long], help: ArgumentHelp("Where to write the recorded script (YAML).", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Replay this login script once in the window, a step at a time (Enter runs the next step), instead of recording.",
                               valueName: "file"))
    var check: String?

    @Flag(help: "Write the text typed into fields other than passwords and one-time codes as it was typed (default: {var: NAME}).")
    var keepValues = false

    @Option(help: ArgumentHelp("What to do with screens that may not come back (consent, \"stay signed in?\"): ask (on a terminal, at the end; elsewhere as keep), optional (make them optional: true), keep (leave them as they were, with a comment).",
                               valueName: "ask|optional|keep"))
    var oneOff: OneOffScreens = .ask

    @OptionGroup(title: "Presentation") var presentation: PresentationOptions

    func validate() throws {
        guard !presentation.headless else { throw ValidationError("record needs the window, where you sign in: leave out --headless") }
        guard (output == nil) != (check == nil) else { throw ValidationError("record needs --output FILE (to record) or --check FILE (to replay), not both") }
    }

    func run() async throws {
        try await reportingFailures(ifInterrupted: "the recording was cancelled; nothing was written") {
            let narrator = Narrator(verbose: presentation.verbose)
            let settings = try client.resolve()
            let deadline = presentation.deadline()
            let http = deadline.http(settings.network)
            try settings.network.prepareEngine(websiteData: .ephemeral)
            try? await WebAuthEngine.prepareEnvironment(headless: false)  // before discovery's threads run (see EngineHeadStart)
            var options = settings.network.applied(to: presentation.sessionOptions(websiteData: .ephemeral, within: deadline))
            if let check {
                guard let script = try PageScriptOptions.parse(["--script", check]).loginScript() else { return }
                options.secretHosts.formUnion(script.secretHosts)
                let stepper = ScriptStepper(script: script, narrator: narrator, http: http)
                try await signIn(settings, http: http, options: options) { try await stepper($0) }
                narrator.say("the script signed in")
                return
            }
            let recorder = LoginRecorder { narrator.say("\($0)") }
            options.recorder = recorder
            // The recorder names each page; --verbose adds the navigation log.
            let verbose = presentation.verbose
            try await signIn(settings, http: http, options: options) { if verbose { narrator.follow($0) } }
            try write(recorder.script(options: RecordingOptions(keepValues: keepValues)), to: output ?? "", narrator)
        }
    }

    /// Signs in with `options`, `script` driving the page beside the person.
    private func signIn(_ settings: ClientSettings, http: any HTTPClient, options: WebAuthenticationOptions,
                        script: @escaping @Sendable (WebAuthenticationSession) async throws -> Void) async throws {
        let parameters = try request.parameters(settings)
        do {
            _ = try await settings.client(http: http).signIn(scopes: request.scopes(settings), additionalParameters: parameters, options: options,
                                                            script: script)
        } catch .script(.other(let description)) {
            throw CommandFailure(.scriptFailed, description)  // the check's own message (ScriptStepper.Stop)
        } catch {
            throw CommandFailure(error)
        }
    }

    /// Writes `recorded` to `path` (atomically, 0600), with the one-off screens as chosen, and says what to export.
    private func write(_ recorded: RecordedScript, to path: String, _ narrator: Narrator) throws {
        guard !recorded.steps.isEmpty else {
            throw CommandFailure(.localFailure, "nothing was recorded: the provider signed you in without a page to fill in, so no script is needed")
        }
        let chosen = oneOff.apply(to: recorded)
        do throws(PrivateFileError) { try PrivateFile.write(Data(chosen.text.utf8), to: URL(fileURLWithPath: path)) } catch {
            throw CommandFailure(.localFailure, "the script could not be written to \(path): \(error)")
        }
        narrator.say("wrote \(path): \(chosen.steps.count) steps")
        for requirement in chosen.requirements where requirement.isEnvironment {
            FileHandle.standardError.write(Data("export \(requirement.name)=...   # \(requirement.meaning)\n".utf8))
        }
    }
}
