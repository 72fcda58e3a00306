import DevProvider
import Foundation
import OpenIDConnect
import SecretGate
import TestSupport
import Testing

/// The secret gate, tried as an attacker and as a careless user would, with the built binary: every
/// path that hands out a secret (a helper's token, a program's environment, WebKit's processes'
/// environment, a token holding a newline) asks the one gate, and gets nothing past it.
@Suite("Secrets leave only through the gate (the built binary)", .startsWebKit(minutes: 3))
struct SecretReleaseTests {
    var webauth = WebAuthBinary()

    /// Values no output and no other process may ever hold.
    static let canaries = ["WEBAUTH_CLIENT_SECRET": "canary-client-secret-5e1f", "WEBAUTH_PKCS11_PIN": "canary-pin-77a2",
                           "WEBAUTH_PROXY_PASSWORD": "canary-proxy-pw-0c3d", "WEBAUTH_CLIENT_CERTIFICATE_PASSWORD": "canary-key-pw-91b8",
                           "TOTP_SEED": "JBSWY3DPEHPK3PXPCANARY"]

    init() throws {
        webauth.environment["ALICE_PASSWORD"] = OpenIDProvider.User.alice.password
        let home = webauth.home.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        webauth.environment["HOME"] = home.path  // Docker's configuration too
        webauth.environment["DOCKER_CONFIG"] = ""
    }

    /// alice signed in (headless, the password from the environment) as the default profile.
    func signIn(_ provider: OpenIDProvider) async throws {
        let login = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless",
                                       "--script", try webauth.file("login-\(UUID().uuidString).yaml", LoginCommandTests.passwordScript)])
        try #require(login.status == 0, "stderr: \(login.stderr)")
    }

    /// `webauth arguments` with `input` on its standard input, as git and Docker run their helpers.
    func helper(_ arguments: [String], input: String) async throws -> WebAuthBinary.Run {
        try await webauth.run(URL(fileURLWithPath: "/bin/sh"), ["-c", #"printf %s "$0" | "$@""#, input, WebAuthBinary.binary.path] + arguments)
    }

    @Test("with no credential_hosts the helpers serve no host (the issue's own commands), with a one-line hint naming credential_hosts")
    func noMappingServesNothing() async throws {
        let provider = try await OpenIDProvider.start()
        try await signIn(provider)
        let token = try await webauth(["token"]).stdout.trimmingCharacters(in: .newlines)
        let git = try await helper(["git-credential", "get"], input: "protocol=http\nhost=attacker.example\n\n")
        #expect(git.status == 0 && git.stdout.isEmpty, "stdout: \(git.stdout)")
        #expect(git.stderr.contains("refusing to send an access token to http://attacker.example: it is not served over https"), "stderr: \(git.stderr)")
        let https = try await helper(["git-credential", "get"], input: "protocol=https\nhost=attacker.example\n\n")
        #expect(https.status == 0 && https.stdout.isEmpty)
        #expect(https.stderr.split(separator: "\n").count == 1 && https.stderr.contains("credential_hosts"), "stderr: \(https.stderr)")
        let docker = try await helper(["docker-credential", "get"], input: "https://evil-registry.example/v2/\n")
        #expect(docker.status == 1 && docker.stdout == "credentials not found in native keychain\n", "stdout: \(docker.stdout)")
        #expect(docker.stderr.contains("credential_hosts"), "stderr: \(docker.stderr)")
        for run in [git, https, docker] { #expect(!run.stdout.contains(token) && !run.stderr.contains(token)) }
    }

    @Test("a mapped name is https on its default port only; name:port another port; http only for a loopback key that says so; list is exactly what get serves")
    func mappingRules() async throws {
        let provider = try await OpenIDProvider.start()
        try await signIn(provider)
        let token = try await webauth(["token"]).stdout.trimmingCharacters(in: .newlines)
        try webauth.configure(#"{"credential_hosts": {"git.example.com": "default", "registry.example.com:5000": "default", "http://localhost:8080": "default"}}"#)
        func git(_ request: String) async throws -> String { try await helper(["git-credential", "get"], input: request + "\n\n").stdout }
        #expect(try await git("protocol=https\nhost=git.example.com") == "username=oauth2\npassword=\(token)\n")
        #expect(try await git("protocol=https\nhost=git.example.com:8443").isEmpty, "another port is another site")
        #expect(try await git("protocol=http\nhost=git.example.com").isEmpty, "plain http to a host that is not loopback")
        #expect(try await git("protocol=http\nhost=localhost:8080") == "username=oauth2\npassword=\(token)\n")
        #expect(try await git("protocol=https\nhost=registry.example.com:5000").contains(token))
        #expect(try await git("protocol=https\nhost=registry.example.com").isEmpty)

        // Docker's configuration says which names are registries it sends to this helper; list
        // names those that get serves (localhost:8080 through the loopback key that says http), and
        // never the git host credential_hosts also maps.
        let dockerConfig = URL(fileURLWithPath: try #require(webauth.environment["HOME"])).appendingPathComponent(".docker/config.json")
        try FileManager.default.createDirectory(at: dockerConfig.deletingLastPathComponent(), withIntermediateDirectories: true)
        try #"{"credsStore": "webauth", "auths": {"registry.example.com:5000": {}, "registry.example.com": {}, "localhost:8080": {}}}"#
            .write(to: dockerConfig, atomically: true, encoding: .utf8)
        let list = try await helper(["docker-credential", "list"], input: "")
        guard case .object(let listed) = try JSONValue(parsing: list.stdout) else { Issue.record("stdout: \(list.stdout)"); return }
        #expect(Set(listed.keys) == ["registry.example.com:5000", "localhost:8080"], "stdout: \(list.stdout)")
        for server in listed.keys {
            let get = try await helper(["docker-credential", "get"], input: server)
            #expect(get.status == 0 && (try? JSONValue(parsing: get.stdout)["Secret"]) == .string(token), "\(server): \(get.stdout)")
        }
        let unlisted = try await helper(["docker-credential", "get"], input: "https://registry.example.com/v2/")
        #expect(unlisted.status == 1 && unlisted.stderr.isEmpty, "a host another helper may serve: no hint")

        try webauth.configure(#"{"credential_hosts": {"http://git.example.com": "default"}}"#)
        let leaking = try await helper(["git-credential", "get"], input: "protocol=http\nhost=git.example.com\n\n")
        #expect(leaking.status == 64 && leaking.stderr.contains("'http://git.example.com' would send a token over plain http"), "stderr: \(leaking.stderr)")
    }

    @Test("git's erase drops the cached token only when the password it names is that token; unknown operations are ignored")
    func eraseOnlyTheFailedToken() async throws {
        let provider = try await OpenIDProvider.start()
        try await signIn(provider)
        try webauth.configure(#"{"credential_hosts": {"git.example.com": "default"}}"#)
        let token = try await webauth(["token"]).stdout.trimmingCharacters(in: .newlines)
        let refreshes = provider.refreshCount
        for password in ["someone-elses", ""] {
            let erase = try await helper(["git-credential", "erase"], input: "protocol=https\nhost=git.example.com\npassword=\(password)\n\n")
            #expect(erase.status == 0 && erase.stdout.isEmpty)
        }
        #expect(try await webauth(["token"]).stdout.trimmingCharacters(in: .newlines) == token && provider.refreshCount == refreshes,
                "another password expired nothing")
        let erase = try await helper(["git-credential", "erase"], input: "protocol=https\nhost=git.example.com\npassword=\(token)\n\n")
        #expect(erase.status == 0)
        #expect(try await webauth(["token"]).stdout.trimmingCharacters(in: .newlines) != token && provider.refreshCount == refreshes + 1)
        let unknown = try await helper(["git-credential", "capability"], input: "protocol=https\nhost=git.example.com\n\n")
        #expect(unknown.status == 0 && unknown.stdout.isEmpty && unknown.stderr.isEmpty, "stderr: \(unknown.stderr)")
        let version = try await helper(["docker-credential", "version"], input: "")
        #expect(version.status == 0 && version.stdout.hasPrefix("docker-credential-webauth"))
    }

    @Test("a token holding a newline (a hostile provider) is handed out by no command: token, env, exec and every helper refuse it")
    func injectingToken() async throws {
        let provider = try await OpenIDProvider.start()
        provider.faults = [.injectingAccessToken]
        try await signIn(provider)
        try webauth.configure(#"{"credential_hosts": {"git.example.com": "default"}}"#)
        let runs = [
            try await webauth(["token"]),
            try await webauth(["env"]),
            try await webauth(["exec", "--", "/bin/sh", "-c", "echo ran"]),
            try await webauth(["kubernetes-credential"], environment: [
                "KUBERNETES_EXEC_INFO": #"{"apiVersion":"client.authentication.k8s.io/v1","spec":{"interactive":false}}"#]),
            try await helper(["git-credential", "get"], input: "protocol=https\nhost=git.example.com\n\n"),
            try await helper(["docker-credential", "get"], input: "git.example.com"),
        ]
        for run in runs {
            #expect(run.status == 3, "stderr: \(run.stderr)")
            #expect(!run.stdout.contains("quit=1") && !run.stdout.contains("ran") && !run.stdout.contains("password="), "stdout: \(run.stdout)")
            #expect(run.stderr.contains("outside printable ASCII"), "stderr: \(run.stderr)")
        }
    }

    @Test("a printable token outside RFC 6750's b64token is handed out, and env says it may be refused by some programs")
    func opaqueToken() async throws {
        let provider = try await OpenIDProvider.start()
        provider.faults = [.spacedAccessToken]
        try await signIn(provider)
        let token = try await webauth(["token"])
        #expect(token.status == 0 && token.stdout.hasSuffix(" opaque\n") && token.stderr.isEmpty, "stderr: \(token.stderr)")
        let env = try await webauth(["env"])
        #expect(env.status == 0 && env.stdout.hasPrefix("export ACCESS_TOKEN='"), "stderr: \(env.stderr)")
        #expect(env.stderr == "Warning: the provider's access token is not an RFC 6750 bearer token (b64token); some programs may refuse it.\n")
    }

    @Test("exec's program gets the token variable and none of webauth's secret variables")
    func execWithholdsSecrets() async throws {
        let provider = try await OpenIDProvider.start()
        try await signIn(provider)
        let run = try await webauth(["exec", "--", "/usr/bin/env"], environment: Self.canaries)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.contains("ACCESS_TOKEN="))
        for name in SecretVariables.known {
            #expect(!run.stdout.contains(name + "="), "\(name) reached the program")
        }
        #expect(run.stdout.contains("TOTP_SEED="), "a variable that is not ours passes: webauth does not know it is secret")
    }

    @Test("WebKit's web and network processes (and every other child) inherit no secret: not the script's env or secret_env values, not WEBAUTH_* secrets; webauth's own /proc/PID/environ shows none either")
    func childrenInheritNoSecret() async throws {
        let provider = try await OpenIDProvider.start()
        let script = try webauth.file("wait-\(UUID().uuidString).yaml", """
            step_timeout: 600
            steps:
              - fill: "#username"
                value: alice
              - fill: "#password"
                env: ALICE_PASSWORD
              - when: "#one-time-code"
                steps:
                  - fill: "#one-time-code"
                    totp: {secret_env: TOTP_SEED}
              - javascript: "location.href = '/typed-' + (document.querySelector('#password').value.length > 0)"
              - wait_for: "#never"
            """)
        let child = try webauth.start(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless", "--verbose",
                                       "--timeout", "120", "--script", script], environment: Self.canaries)
        var stderr = ""
        var chunks = child.stderr.makeAsyncIterator()
        // The page says, by going to /typed-true, that the password (read from memory, not the environment) was typed.
        while !stderr.contains("/typed-"), let chunk = await chunks.next() { stderr += chunk }
        try #require(stderr.contains("/typed-true"), "the password was typed: \(stderr)")
        let children = ProcessTree.environments(under: child.pid)
        #expect(children.contains { $0.process.hasPrefix("WebKitWebProces") } && children.contains { $0.process.hasPrefix("WebKitNetworkPr") },
                "the web and network processes run: \(children.map(\.process))")
        let secrets = Array(Self.canaries.values) + [OpenIDProvider.User.alice.password]
        for (process, environment) in children {
            for secret in secrets where environment.contains(secret) { Issue.record("\(process) holds \(secret.prefix(8))… in its environment") }
            #expect(!environment.contains("ALICE_PASSWORD="), "\(process) has the script's variable")
        }
        // webauth's own block, as a process viewer reads it: unsetenv leaves it as it was.
        // (Its text is never put in a message: it may hold the secrets.)
        let own = String(decoding: try #require(FileManager.default.contents(atPath: "/proc/\(child.pid)/environ")), as: UTF8.self)
        let (keepsHome, blanksPassword) = (own.contains("HOME=" + webauth.environment["HOME"]!), own.contains("ALICE_PASSWORD=\0"))
        #expect(keepsHome, "the block is read, and keeps what is not secret")
        #expect(blanksPassword, "the withheld variable's name stays, its value is blanked")
        for secret in secrets where own.contains(secret) { Issue.record("webauth's own /proc/PID/environ holds \(secret.prefix(8))…") }
        kill(child.pid, SIGTERM)
        while let chunk = await chunks.next() { stderr += chunk }
        #expect(await child.status.value == 143, "stderr: \(stderr)")
    }
}
