import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// `webauth login` with a broker running signs in through it (``BrokeredLogin``, `webauth-tokens`):
/// the page shows in the broker's window, from its warm engine, and the command prints what an
/// in-process sign-in prints. The development provider remembers the person here (`remembersPeople`),
/// as a deployed one does, so a second sign-in needs no typing. What the broker cannot do as the
/// command line asks runs in-process, as before.
@Suite("webauth login through a running broker", .startsWebKit(minutes: 5))
struct BrokeredLoginTests {
    var webauth = WebAuthBinary()

    init() {
        webauth.environment["ALICE_PASSWORD"] = OpenIDProvider.User.alice.password
    }

    /// The development provider's login page in a window of the bus's display.
    static let loginPage = "^Sign in to the development provider$"

    /// The X window of the development provider's login page on the bus's display, once one shows.
    /// `xdotool search --sync` waits for it, but exits with nothing when a window it is looking at
    /// goes away meanwhile (BadWindow: a GTK process on the display making and dropping its own), so
    /// a search that found nothing and failed is asked again, a bounded number of times.
    func loginWindow(_ bus: BrokerBus) async throws -> String {
        var failures: [String] = []
        for _ in 0..<10 {
            let found = try await bus.run("/usr/bin/xdotool", ["search", "--sync", "--onlyvisible", "--name", Self.loginPage])
            if let window = found.stdout.split(separator: "\n").first { return String(window) }
            failures.append("status \(found.status): \(found.stderr)")
        }
        throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "no login window: \(failures)"])
    }

    /// Starts the bus's broker (its activation, by a call): `webauth login` never starts one.
    func startBroker(_ bus: BrokerBus) async throws {
        let listed = try await bus.call(method: "ListAccounts")
        try #require(listed["results"] != nil, "\(listed)")
    }

    @Test("a second login --profile with a broker running goes through it: the provider remembers the person in the account's cookies, the summary is login's, webauth token reads the saved sign-in")
    func signsInThroughTheBroker() async throws {
        var settings = DevProviderConfiguration()
        settings.remembersPeople = true
        let provider = try await OpenIDProvider.start(configuration: settings)
        let bus = try await BrokerBus.start(webauth, display: true)
        defer { Task { await bus.stop() } }
        try await startBroker(bus)
        let arguments = ["login", "--profile", "work", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--scope", "openid offline_access"]
        // The first sign-in of the day, in-process (a script): the provider's session cookie goes into the profile's cookies.
        let first = try await bus.run(WebAuthBinary.binary.path, arguments + ["--headless", "--script", try webauth.file("login.yaml", LoginCommandTests.passwordScript)])
        try #require(first.status == 0, "stderr: \(first.stderr)")
        #expect(!bus.brokerLog.contains("SignIn from webauth"), "a scripted login is in-process: \(bus.brokerLog)")

        // The second: the broker's window, which the provider lets through with no page to fill.
        let property = try await bus.gdbus("Get", ["org.webauthsession.Broker1", "CanShowWindows"], interface: "org.freedesktop.DBus.Properties")
        #expect(property.stdout.contains("<true>"), "\(property.stdout)\(property.stderr)")
        let login = try await bus.run(WebAuthBinary.binary.path, arguments)
        try #require(login.status == 0, "stderr: \(login.stderr)\nbroker: \(bus.brokerLog)")
        #expect(bus.brokerLog.contains("SignIn from webauth for the account 'work'"), "the broker signed in: \(bus.brokerLog)")
        let summary = try JSONValue(parsing: login.stdout)
        #expect(summary["subject"]?.stringValue == OpenIDProvider.User.alice.subject && summary["issuer"]?.stringValue == provider.issuer
                && summary["client_id"]?.stringValue == "webauth-demo" && summary["has_refresh_token"] == .bool(true)
                && summary["signed_in"] == .bool(true) && summary["store"]?.stringValue?.hasPrefix("file:") == true, "\(summary)")
        #expect(summary["access_token"] == nil && summary["scopes"] == .array([.string("openid"), .string("offline_access")]), "no token unless asked: \(summary)")
        #expect(provider.secretsSeen.allSatisfy { !login.stdout.contains($0) && !login.stderr.contains($0) }, "no token, code or password printed")
        let status = try await webauth(["status", "--profile", "work"])
        #expect(status.stdout == login.stdout, "the summary is status's of the saved sign-in: \(status.stdout)")

        let shown = try await bus.run(WebAuthBinary.binary.path, arguments + ["--show-tokens"])
        let token = try await webauth(["token", "--profile", "work"])
        let shownToken = try JSONValue(parsing: shown.stdout)["access_token"]?.stringValue
        #expect(token.status == 0 && shownToken == token.stdout.trimmingCharacters(in: .newlines),
                "--show-tokens prints the sign-in webauth token then reads: \(shown.stderr)")
        #expect(bus.brokerLog.components(separatedBy: "SignIn from webauth for the account 'work'").count == 3)
        await bus.stop()  // here, not only in the deferred task: its Xvfb must not outlive the test run
    }

    @Test("a broker with no display (started before the desktop gave it one) says so in CanShowWindows, and a login with a display of its own signs in in-process")
    func brokerWithoutDisplay() async throws {
        var settings = DevProviderConfiguration()
        settings.remembersPeople = true
        let provider = try await OpenIDProvider.start(configuration: settings)
        let bus = try await BrokerBus.start(webauth)
        defer { Task { await bus.stop() } }
        try await startBroker(bus)
        let property = try await bus.gdbus("Get", ["org.webauthsession.Broker1", "CanShowWindows"], interface: "org.freedesktop.DBus.Properties")
        #expect(property.stdout.contains("<false>"), "\(property.stdout)\(property.stderr)")
        let (xvfb, display) = try await BrokerBus.startDisplay()
        defer { Task { await BrokerBus.stopDisplay(xvfb) } }
        let arguments = ["login", "--profile", "work", "--issuer", provider.issuer, "--client-id", "webauth-demo"]
        let first = try await bus.run(WebAuthBinary.binary.path, arguments + ["--headless", "--script", try webauth.file("login.yaml", LoginCommandTests.passwordScript)])
        try #require(first.status == 0, "stderr: \(first.stderr)")
        // Before: the broker's "no display to show the sign-in window on", exit 1, where an in-process login works.
        let login = try await bus.run(WebAuthBinary.binary.path, arguments, environment: ["DISPLAY": display])
        #expect(login.status == 0, "stderr: \(login.stderr)\nbroker: \(bus.brokerLog)")
        #expect(!bus.brokerLog.contains("SignIn from webauth"), "the broker was not asked: \(bus.brokerLog)")
        #expect(try JSONValue(parsing: login.stdout)["subject"]?.stringValue == OpenIDProvider.User.alice.subject)
        await BrokerBus.stopDisplay(xvfb)
        await bus.stop()
    }

    @Test("Ctrl-C of a login through the broker: exit 130, the broker's request is closed, and the account's lock is free for the next sign-in")
    func interruptClosesTheRequest() async throws {
        let fixture = try await BrokerFixture.start(webauth, display: true)
        let bus = fixture.bus
        defer { Task { await bus.stop() } }
        try await startBroker(bus)
        let login = try ChildProcess(WebAuthBinary.binary.path, ["login", "--profile", "work", "--issuer", fixture.provider.issuer, "--client-id", "webauth-demo"],
                                     environment: webauth.baseEnvironment.merging(bus.clientEnvironment) { $1 }, stderr: .pipe)
        _ = try await loginWindow(bus)
        login.signal(SIGINT)
        #expect(await login.exitStatus() == 130)
        let stderr = String(decoding: await login.outputToEnd(), as: UTF8.self)
        #expect(stderr.contains("Interrupted: the sign-in was cancelled; nothing was saved."), "stderr: \(stderr)")
        // The next sign-in of the account waits for the cancelled one's lock: it ends only once that request has.
        let next = try await bus.request(fixture.signInOptions(account: "work"))
        #expect(next["response"]?.numberValue == 0, "\(next)\nbroker: \(bus.brokerLog)")
        #expect(bus.brokerLog.contains("/webauth_login_\(login.pid) cancelled"), "the request was closed: \(bus.brokerLog)")
        let windows = try await bus.run("/usr/bin/xdotool", ["search", "--onlyvisible", "--name", Self.loginPage])
        #expect(windows.stdout.isEmpty, "no sign-in window is left: \(windows.stdout)")
        await bus.stop()
    }

    @Test("what the broker cannot do runs in-process: --no-broker, --headless, and an account saved with a confidential client, which keeps its secret file")
    func fallsBackInProcess() async throws {
        let secret = "confidential-5a1d"
        var settings = DevProviderConfiguration()
        settings.clients = [OpenIDProvider.Client(clientID: "server-app", clientSecret: secret, redirectURIs: ["com.example.webauth:/callback"]),
                            OpenIDProvider.Client(clientID: "webauth-demo", redirectURIs: ["com.example.webauth:/callback"])]
        let provider = try await OpenIDProvider.start(configuration: settings)
        let bus = try await BrokerBus.start(webauth, display: true)
        defer { Task { await bus.stop() } }
        try await startBroker(bus)
        let script = try webauth.file("login.yaml", LoginCommandTests.passwordScript)
        let headless = try await bus.run(WebAuthBinary.binary.path, ["login", "--profile", "secret", "--issuer", provider.issuer, "--client-id", "server-app",
                                                                      "--client-secret-file", try webauth.file("client-secret", secret), "--headless", "--script", script])
        try #require(headless.status == 0, "stderr: \(headless.stderr)")
        let optedOut = try await bus.run(WebAuthBinary.binary.path, ["login", "--profile", "plain", "--issuer", provider.issuer, "--client-id", "webauth-demo",
                                                                      "--headless", "--script", script, "--no-broker"])
        try #require(optedOut.status == 0, "stderr: \(optedOut.stderr)")
        #expect(!bus.brokerLog.contains("SignIn from webauth"), "both in-process: \(bus.brokerLog)")

        // Signed in again in-process with no client option: the saved client's secret file is still the sign-in's.
        let renewed = try await bus.run(WebAuthBinary.binary.path, ["login", "--profile", "secret", "--headless", "--script", script])
        try #require(renewed.status == 0, "stderr: \(renewed.stderr)")
        let saved = { try String(contentsOf: webauth.home.appendingPathComponent("state/webauthsession/secret.json"), encoding: .utf8) }
        let renewedState = try saved()
        #expect(renewedState.contains("client_secret_reference") && renewedState.contains("client_secret_basic"), "\(renewedState)")

        // With no client option it goes to the broker, which refuses the account before any page opens: the page is
        // this process's window then (the person closes it: the in-process sign-in's exit 2), and the sign-in is as it was.
        let closer = Task {
            _ = try await bus.run("/usr/bin/xdotool", ["windowfocus", "--sync", try await loginWindow(bus), "key", "Escape"])
        }
        let again = try await bus.run(WebAuthBinary.binary.path, ["login", "--profile", "secret", "--timeout", "60"])
        try await closer.value
        #expect(again.status == 2, "stderr: \(again.stderr)\nbroker: \(bus.brokerLog)")
        #expect(bus.brokerLog.contains("InvalidArgument: the account 'secret' is signed in with a confidential client"), "\(bus.brokerLog)")
        #expect(bus.brokerLog.components(separatedBy: "SignIn from webauth").count == 2, "one request, refused: \(bus.brokerLog)")
        #expect(try saved() == renewedState, "nothing was saved")
        await bus.stop()
    }
}
