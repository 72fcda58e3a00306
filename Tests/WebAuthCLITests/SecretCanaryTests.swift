import DevProvider
import Foundation
import OpenIDConnect
import SecretGate
import TestSupport
import Testing

/// Every path `webauth` can fail by (and the ones that work), run as a user would with every
/// output switched on (`--verbose`, `--trace`, `--artifacts`), then every byte it wrote is
/// searched for every secret the provider saw or handed out: state, nonce, PKCE challenge and
/// verifier, codes, tokens, ID-token hints, passwords. The provider records those itself, so
/// the canaries are the real secrets of each run.
@Suite("No secret in any output (the canary test)", .serialized, .startsWebKit(minutes: 10))
struct SecretCanaryTests {
    static let wrongPassword = "not-the-password-4d1c"

    /// A script; its steps wait up to 20 s (a cold engine under a loaded machine took 5 s to show the first page).
    static func script(_ steps: String) -> String { "step_timeout: 20\nsteps:\n" + steps }
    static let signIn = """
          - fill: "#username"
            value: alice
          - fill: "#password"
            env: ALICE_PASSWORD
          - press_enter: "#password"

        """

    /// One `webauth` run's outputs, kept for the search.
    struct Output {
        let label: String
        let text: String
    }

    @Test("no code, token, state, nonce, verifier, hint or password in stdout, stderr, traces, artefacts or temporary files")
    func everyPathIsClean() async throws {
        var configuration = DevProviderConfiguration()
        configuration.accessTokenLifetime = 30  // always due for a refresh
        configuration.slowResponseSeconds = 20
        configuration.deviceCodeInterval = 1
        configuration.clients = [.demo, OpenIDProvider.Client(clientID: "desktop-app", redirectURIs: ["http://127.0.0.1/callback"])]
        let provider = try await OpenIDProvider.start(configuration: configuration)
        let tls = try await PythonFixtureServer(script: "tls_server")  // a self-signed certificate
        var webauth = WebAuthBinary()
        let temporary = webauth.home.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        webauth.environment["TMPDIR"] = temporary.path
        webauth.environment["ALICE_PASSWORD"] = OpenIDProvider.User.alice.password
        webauth.environment["WRONG_PASSWORD"] = Self.wrongPassword
        // Secrets of ours in the environment that no output or other process may hold:
        // the client secret is left out, as it would change how the public demo client signs in.
        let planted = SecretReleaseTests.canaries.filter { SecretVariables.known.contains($0.key) && $0.key != "WEBAUTH_CLIENT_SECRET" }
        webauth.environment.merge(planted) { $1 }
        var outputs: [Output] = []

        /// Runs `webauth login` headless with every output on, under `faults`; expects it to exit
        /// with `status`, and shows its stderr if it does not.
        func login(_ label: String, _ steps: String, _ extra: [String] = [], faults: Set<ProviderFault> = [], exits status: Int32,
                   sourceLocation: SourceLocation = #_sourceLocation) async throws {
            provider.faults = faults
            defer { provider.faults = [] }
            let folder = webauth.home.appendingPathComponent(label)
            let run = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless", "--verbose",
                                         "--script", try webauth.file("\(label).yaml", Self.script(steps)),
                                         "--trace", folder.path + ".trace.json", "--artifacts", folder.path] + extra)
            outputs += [Output(label: "\(label) stdout", text: run.stdout), Output(label: "\(label) stderr", text: run.stderr)]
            #expect(run.status == status, "\(label): stderr: \(run.stderr)", sourceLocation: sourceLocation)
        }

        /// Runs another command with `--verbose` where it has one; expects it to exit with `status`
        /// (any failure: `nil`), and shows its stderr if it does not.
        func command(_ label: String, _ arguments: [String], faults: Set<ProviderFault> = [], exits status: Int32?,
                     sourceLocation: SourceLocation = #_sourceLocation) async throws {
            provider.faults = faults
            defer { provider.faults = [] }
            let run = try await webauth(arguments)
            outputs += [Output(label: "\(label) stdout", text: run.stdout), Output(label: "\(label) stderr", text: run.stderr)]
            #expect(status.map { run.status == $0 } ?? (run.status != 0), "\(label): stderr: \(run.stderr)", sourceLocation: sourceLocation)
        }

        /// A step that sends the page elsewhere with the authorization request's query (state,
        /// nonce, PKCE challenge) in the URL's query and fragment.
        func away(to url: String) -> String {
            "  - wait_for: \"#username\"\n  - javascript: \"location.href = '\(url)' + location.search + '#' + location.search.slice(1)\"\n"
        }
        try await login("success", Self.signIn, exits: 0)
        try await login("wrong-password", """
              - fill: "#username"
                value: alice
              - fill: "#password"
                env: WRONG_PASSWORD
              - press_enter: "#password"

            """, ["--settle-time", "2"], exits: 7)
        try await login("timeout", "  - wait_for: \"#username\"\n", ["--timeout", "3"], exits: 5)
        try await login("near-miss", away(to: "com.example.webauth:/callbackx") + Self.signIn, exits: 0)
        let closed = try ClosedPort()
        defer { closed.release() }
        try await login("load-failed", away(to: "http://127.0.0.1:\(closed.port)/gone"), exits: 4)
        try await login("tls-failure", away(to: "https://127.0.0.1:\(tls.port)/login"), exits: 4)
        try await login("denied", Self.signIn, faults: [.deny], exits: 2)
        for fault: ProviderFault in [.invalidGrant, .serverError, .htmlErrorPage, .truncatedTokenResponse, .wrongIssuer,
                                     .expiredIDToken, .badIDTokenSignature, .hmacIDTokens, .unsignedIDTokens] {
            try await login(fault.rawValue, Self.signIn, faults: [fault], exits: 3)
        }
        // The system browser: curl signs in and follows the redirect to the loopback listener; a
        // browser that does nothing leaves the listener to time out.
        let browser = try webauth.executable("browser.sh", """
            #!/bin/sh
            location=$(curl -s -o /dev/null -w '%header{location}' -d username=alice -d password=wonderland "$1")
            curl -s "$location" > /dev/null
            """)
        let systemBrowser = ["login", "--issuer", provider.issuer, "--client-id", "desktop-app", "--system-browser", "--verbose"]
        try await command("system-browser", systemBrowser + ["--browser-command", browser, "--timeout", "60"], exits: 0)
        try await command("system-browser-timeout", systemBrowser + ["--browser-command", "/bin/true", "--timeout", "3"], exits: 5)
        // The device grant: a phone approves the code the run printed (the user code is for the
        // person and is printed on purpose; the device code never is); then a denied and an expired code.
        let deviceLogin = ["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--flow", "device", "--verbose"]
        let device = try await webauth.signInOnPhone(deviceLogin)
        outputs += [Output(label: "device stdout", text: device.stdout), Output(label: "device stderr", text: device.stderr)]
        #expect(device.status == 0, "stderr: \(device.stderr)")
        try await command("device-denied", deviceLogin, faults: [.deny], exits: 2)
        try await command("device-expired", deviceLogin, faults: [.expiredDeviceCode], exits: 5)
        try await login("saved", Self.signIn, exits: 0)
        try await command("userinfo-failed", ["userinfo"], faults: [.serverError], exits: nil)
        try await command("refresh-rejected", ["token"], faults: [.invalidGrant], exits: 6)
        try await login("saved-again", Self.signIn, exits: 0)
        // Every path that hands out a secret: the helpers asked by an attacker's host, a
        // program run by exec, an eval'd env line, and WebKit's processes during a sign-in.
        for (label, arguments, input) in [("git-attacker", ["git-credential", "get"], "protocol=http\nhost=attacker.example\n\n"),
                                          ("docker-attacker", ["docker-credential", "get"], "https://evil-registry.example/v2/")] {
            let run = try await webauth.run(URL(fileURLWithPath: "/bin/sh"), ["-c", #"printf %s "$0" | "$@""#, input, WebAuthBinary.binary.path] + arguments)
            outputs += [Output(label: "\(label) stdout", text: run.stdout), Output(label: "\(label) stderr", text: run.stderr)]
        }
        // The program's environment holds the token on purpose (and this test's passwords, not ours): the rest is searched.
        try await command("exec-environment", ["exec", "--", "/bin/sh", "-c",
                                               #"test -n "$ACCESS_TOKEN" && echo token-given; env | grep -v -e ^ACCESS_TOKEN= -e ^ALICE_PASSWORD= -e ^WRONG_PASSWORD="#], exits: 0)
        #expect(outputs.last { $0.label == "exec-environment stdout" }?.text.contains("token-given") == true)
        let waiting = try webauth.start(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless", "--verbose",
                                         "--script", try webauth.file("children.yaml", Self.script("""
                                               - fill: "#password"
                                                 env: ALICE_PASSWORD
                                               - wait_for: "#never"

                                             """))], environment: ["WRONG_PASSWORD": ""])  // another run's variable: not this script's
        var waitingStderr = ""
        var chunks = waiting.stderr.makeAsyncIterator()
        while !waitingStderr.contains("page from"), let chunk = await chunks.next() { waitingStderr += chunk }
        let children = ProcessTree.environments(under: waiting.pid)
        #expect(children.contains { $0.process.hasPrefix("WebKitWebProces") }, "the web process's environment is searched: \(children.map(\.process))")
        outputs += children.map { Output(label: "environment of \($0.process)", text: $0.environment) }
        kill(waiting.pid, SIGTERM)
        while let chunk = await chunks.next() { waitingStderr += chunk }
        outputs.append(Output(label: "children stderr", text: waitingStderr))

        try await command("refresh-cut-off", ["token"], faults: [.truncatedTokenResponse], exits: 3)
        // The provider's page times out; the sign-in is still removed here: exit 3 ("signed out here; …").
        try await command("logout-timeout", ["logout", "--headless", "--verbose", "--timeout", "3"], faults: [.slow], exits: 3)

        await tls.stop()
        let secrets = provider.secretsSeen.union(planted.values).union([OpenIDProvider.User.alice.password])
        #expect(secrets.count > 50, "the provider saw this many secrets: \(secrets.count)")
        // The control: the search finds a secret where one is printed on purpose.
        try await login("control", Self.signIn, ["--show-tokens"], exits: 0)
        let control = try #require(outputs.last { $0.label == "control stdout" })
        #expect(provider.secretsSeen.contains { control.text.contains($0) }, "--show-tokens prints tokens the search must find")
        outputs.removeAll { $0.label.hasPrefix("control") }

        let store = webauth.home.appendingPathComponent("state").path
        for file in Self.files(under: webauth.home) where !file.hasPrefix(store) {
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            outputs.append(Output(label: file.replacingOccurrences(of: webauth.home.path, with: "~"),
                                  text: String(decoding: data, as: UTF8.self)))
        }
        #expect(outputs.contains { $0.label.hasSuffix("page.json") }, "the wrong password left its artefacts")
        #expect(outputs.contains { $0.label.hasSuffix("timeout.trace.json") }, "the traces are searched")
        for output in outputs {
            for secret in secrets where output.text.contains(secret) {
                Issue.record("\(output.label) contains a secret: \(secret.prefix(4))… (\(secret.count) characters)")
            }
        }
    }

    /// Every regular file below `folder`, this test's own inputs (login scripts, the browser script) left out.
    static func files(under folder: URL) -> [String] {
        let walker = FileManager.default.enumerator(atPath: folder.path)
        return (walker?.allObjects as? [String] ?? [])
            .map { folder.appendingPathComponent($0).path }
            .filter { path in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
                    && !path.hasSuffix(".yaml") && !path.hasSuffix(".sh")
            }
    }
}


/// A loopback port that refuses connections: bound, never listening, held until released.
/// (Port 1 would not do: WebKit blocks the fetch standard's "bad ports" before any request.)
private struct ClosedPort {
    let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func release() { close(descriptor) }
}
