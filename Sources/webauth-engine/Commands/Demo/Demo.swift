import ArgumentParser
import DevProvider
import Foundation
import OpenIDConnect
import WebAuthSession
import WebAuthCommandLine
import WebAuthSupport

/// `webauth demo`: the whole life of a sign-in against a provider served in-process.
struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sign in to a development OpenID provider served by this process, refresh, call userinfo, sign out.",
        discussion: """
            Starts an OpenID provider on 127.0.0.1, discovers it, opens its login page in the \
            embedded WebKitGTK view (headless, on a private Xvfb when there is no display) with \
            PKCE, state and nonce, and runs a login script: a wrong password first (the page shows \
            its error), then the right one, then Allow on the consent page. The redirect to \
            com.example.webauth:/callback is caught before it reaches the network; the code is \
            exchanged and the ID token validated. Then the tokens are refreshed (the refresh token \
            rotates), userinfo is called, and the person is signed out at the provider. Each step \
            is narrated with its time on stderr; the claims are printed as JSON on stdout. Tokens \
            are never printed.
            """)

    @Flag(help: "Show the sign-in window and let a person type (needs a display). The account is alice / wonderland.")
    var interactive = false

    @Option(help: "How the scripted sign-in is shown: headless, window (the desktop popup) or kiosk (full screen).")
    var presentation: DemoPresentation = .headless

    @Option(help: ArgumentHelp("Save a screenshot of what the person sees at each step here (PNG).", valueName: "directory"))
    var screenshots: String?

    @Flag(help: "Sign in with a one-time code sent to alice@example.com (read from the provider's outbox) instead of a password.")
    var emailCode = false

    @Flag(help: "Register a passkey for alice on the provider's account page, then sign in with it alone (a login script's virtual authenticator, in memory; the provider runs on localhost).")
    var passkey = false

    @Option(help: "embedded (the login page in the engine) or device (the device grant: this process shows a code, a headless \"phone\" approves it).")
    var flow: Flow = .embedded

    @Option(help: "Seconds to wait for the sign-in; each step of its script may wait as long.")
    var timeout: Int = 120

    @Flag(help: "Log the engine's navigation decisions, page loads and failed loads (values redacted).")
    var verbose = false

    /// How the demo signs in: the flows it has (not `login`'s `browser`, which needs a person's browser).
    enum Flow: String, ExpressibleByArgument, CaseIterable {
        /// The login page in the engine.
        case embedded
        /// The device grant, both sides in this process.
        case device
    }

    func validate() throws {
        if passkey, interactive || emailCode || flow != .embedded {
            throw ValidationError("--passkey is a scripted embedded sign-in: not with --interactive, --email-code or --flow device")
        }
    }

    func run() async throws {
        try await reportingFailures(ifInterrupted: "the demo was stopped", offering: [.verbose, .timeout]) {
            let narrator = Narrator(verbose: verbose)
            // A scripted window or kiosk is for nobody to see: with no display, it goes to a private Xvfb on purpose.
            // A kiosk never opens GTK's inspector, even with GTK_DEBUG=interactive.
            if !interactive, presentation == .kiosk { GTKEnvironment.removeInspector() }
            let environment = CommandEnvironment.original
            if !interactive, presentation != .headless, !GraphicalSession.hasDisplay(environment) {
                try? WebAuthEngine.configure(EngineConfiguration(display: .virtual))
            }
            // Before the provider's threads run (see EngineHeadStart).
            try? await WebAuthEngine.prepareEnvironment(headless: !interactive && presentation == .headless)
            var settings = DevProviderConfiguration()
            settings.deviceCodeInterval = 1
            settings.clients = [OpenIDProvider.Client(clientID: "webauth-demo", redirectURIs: ["com.example.webauth:/callback"],
                                                      requiresConsent: true)]
            let provider: OpenIDProvider
            // A passkey's relying party is a domain: localhost, not 127.0.0.1.
            do { provider = try await OpenIDProvider.start(configuration: settings, host: passkey ? "localhost" : "127.0.0.1") } catch {
                throw CommandFailure(.localFailure, "the development provider could not start: \(error)")
            }
            narrator.say("OpenID provider at \(provider.issuer)")
            let client = OpenIDConnectClient(issuer: provider.issuer, clientID: "webauth-demo",
                                             redirectURI: try! RedirectURI("com.example.webauth:/callback"), http: Self.http)
            var options = WebAuthenticationOptions()
            options.presentation = interactive ? .window() : presentation.sessionPresentation
            options.timeout = .seconds(timeout)
            let outbox = URL(string: provider.issuer + "/outbox?email=" + OpenIDProvider.User.alice.email)!
            let emailCode = self.emailCode, interactive = self.interactive, passkey = self.passkey
            let camera = Camera(directory: screenshots.map { URL(fileURLWithPath: $0) }, narrator: narrator)
            let scopes = ["openid", "profile", "email", "offline_access"]
            do {
                let signedIn: AuthState
                if flow == .device {
                    signedIn = try await narrator.timed("signed in with the device grant") {
                        try await Self.signInOnPhone(client, scopes: scopes, options: options, narrator, camera)
                    }
                } else {
                    signedIn = try await narrator.timed("signed in") {
                        try await narrator.waiting(for: "the sign-in") {
                            try await client.signIn(scopes: scopes, options: options) { session in
                                narrator.follow(session)
                                guard !interactive else { return }
                                if passkey { return try await Self.signInWithPasskey(session, narrator, camera) }
                                let steps = Duration.seconds(timeout)
                                try await emailCode ? Self.signInWithEmailCode(session, outbox: outbox, narrator, camera, steps: steps)
                                                    : Self.signInWithPassword(session, narrator, camera, steps: steps)
                            }
                        }
                    }.authState
                }
                guard let idToken = signedIn.idToken else { throw CommandFailure(.providerError, "the provider issued no ID token") }
                narrator.say("ID token valid: sub \(idToken.subject)\(flow == .device ? "" : ", nonce matched"), signed with ES256")
                let manager = AuthStateManager(state: signedIn, http: Self.http)
                let refreshed = try await narrator.timed("refreshed the tokens (the refresh token rotated)") {
                    try await manager.refreshNow()
                }
                narrator.say("new access token valid until \(refreshed.lastTokenResponse?.accessTokenExpiresAt.map { "\($0)" } ?? "?")")
                let userinfo = try await narrator.timed("called userinfo") { try await manager.userinfo() }
                _ = try await narrator.timed("signed out at the provider") {
                    try await client.signOut(refreshed, options: options) { narrator.follow($0) }
                }
                print(JSONValue.object(SignInSummary.shown(idToken.claims.all.merging(userinfo) { $1 })).description)
            } catch let error as SignInError {
                throw CommandFailure(error)
            } catch let error as AuthStateError {
                throw CommandFailure(error)
            }
            await provider.stop()
        }
    }

    /// A wrong password first (the page says so), then alice's, then Allow; each step waits at most
    /// `steps` (the demo's --timeout: a page slow to come on a loaded machine is no failure of the demo).
    /// The demo's requests go through WebKit's own network stack: Foundation's URLSession, the
    /// library's default, makes cache and cookie folders under HOME as soon as one is created.
    static let http: any HTTPClient = SoupHTTPClient()

    private static func signInWithPassword(_ session: WebAuthenticationSession, _ narrator: Narrator, _ camera: Camera, steps: Duration) async throws {
        let passwords = ["WRONG_PASSWORD": "not-the-password", "PASSWORD": OpenIDProvider.User.alice.password]
        try await session.waitForElement("#password", timeout: steps)
        await camera.shoot(session, "1-login")
        narrator.say("typing a wrong password first")
        try await LoginScript([.fill("#username", .literal("alice")), .fill("#password", .environment("WRONG_PASSWORD")),
                               .click("#sign-in"), .waitForElement("#error")], stepTimeout: steps)
            .run(in: session, environment: passwords, http: Demo.http)
        let message = try await session.evaluateJavaScript("document.getElementById('error').textContent")
        narrator.say("the page says: \(message.stringValue ?? "")")
        await camera.shoot(session, "2-wrong-password")
        narrator.say("typing the demo password")
        try await LoginScript([.fill("#username", .literal("alice")), .fill("#password", .environment("PASSWORD")),
                               .click("#sign-in")], stepTimeout: steps)
            .run(in: session, environment: passwords, http: Demo.http)
        try await allow(session, narrator, camera, steps: steps)
    }

    /// Email, the code from the provider's outbox, then Allow.
    private static func signInWithEmailCode(_ session: WebAuthenticationSession, outbox: URL, _ narrator: Narrator,
                                            _ camera: Camera, steps: Duration) async throws {
        narrator.say("asking for a code by email")
        try await LoginScript([.click("#use-email-code"), .fill("#email", .literal(OpenIDProvider.User.alice.email)),
                               .click("#send-code"), .waitForElement("#code")], stepTimeout: steps).run(in: session, http: Demo.http)
        await camera.shoot(session, "2-code")
        narrator.say("reading the code from the provider's outbox")
        try await LoginScript([.fill("#code", .outbox(outbox)), .click("#verify")], stepTimeout: steps).run(in: session, http: Demo.http)
        try await allow(session, narrator, camera, steps: steps)
    }

    static func allow(_ session: WebAuthenticationSession, _ narrator: Narrator, _ camera: Camera, steps: Duration = .seconds(30)) async throws {
        try await session.waitForElement("#allow", timeout: steps)
        await camera.shoot(session, "3-consent")
        narrator.say("allowing access on the consent page")
        try await LoginScript([.click("#allow")], stepTimeout: steps).run(in: session, http: Demo.http)
    }
}

/// The demo's presentations.
enum DemoPresentation: String, ExpressibleByArgument, CaseIterable {
    case headless, window, kiosk

    var sessionPresentation: WebAuthenticationOptions.Presentation {
        switch self {
        case .headless: return .headless
        case .window: return .window()
        case .kiosk:
            var kiosk = KioskSettings()  // the kiosk bar, idle warning and touch keyboard, branded
            kiosk.title = "WebAuthSession demo"
            kiosk.accentColor = "#0b5cad"
            return .kiosk(kiosk)
        }
    }
}

/// Saves what the person sees, when asked to (`--screenshots`).
struct Camera: Sendable {
    let directory: URL?
    let narrator: Narrator

    func shoot(_ session: WebAuthenticationSession, _ name: String) async {
        guard let directory else { return }
        do {
            try PrivateFile.makeDirectory(directory)
            let file = directory.appendingPathComponent(name + ".png")
            try PrivateFile.write(try await session.screenshot(of: .window), to: file)
            narrator.say("screenshot \(file.path)")
        } catch {
            narrator.warn("no screenshot \(name): \(error)")
        }
    }
}
