import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// The credential helpers with the real clients: `kubectl` against a local HTTPS API, `git`
/// cloning over HTTP from `git http-backend`, and Docker's protocol as the docker CLI speaks it
/// (no engine here). Each server lets a request in only with a token the provider accepts; the
/// docs/tools.md's snippets are the configuration.
@Suite("credential helpers: kubectl, git, Docker (the built binary)", .startsWebKit(minutes: 3))
struct CredentialHelperTests {
    var webauth = WebAuthBinary()

    init() throws {
        let home = webauth.home.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        webauth.environment["HOME"] = home.path  // git's global configuration and Docker's: throwaways
        webauth.environment["DOCKER_CONFIG"] = ""
        webauth.environment["GIT_CONFIG_NOSYSTEM"] = "1"
        webauth.environment["GIT_TERMINAL_PROMPT"] = "0"
        webauth.environment["PATH"] = WebAuthBinary.binary.deletingLastPathComponent().path + ":"
            + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    }

    /// A provider that asks for a device-grant poll every second.
    static func provider() async throws -> OpenIDProvider {
        var configuration = DevProviderConfiguration()
        configuration.deviceCodeInterval = 1
        return try await OpenIDProvider.start(configuration: configuration)
    }

    /// Signs alice in as `profile` (the device grant, approved on the provider's page: no web view
    /// needed) and returns the saved access token.
    func signIn(_ provider: OpenIDProvider, as profile: String) async throws -> String {
        let login = try await webauth.signInOnPhone(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--flow", "device",
                                                     "--profile", profile])
        try #require(login.status == 0, "stderr: \(login.stderr)")
        return try await savedToken(profile)
    }

    func savedToken(_ profile: String) async throws -> String {
        let token = try await webauth(["token", "--profile", profile])
        try #require(token.status == 0, "stderr: \(token.stderr)")
        return token.stdout.trimmingCharacters(in: .newlines)
    }

    /// Runs `program arguments`, its standard input `input` (as git and Docker give their helpers).
    func run(_ program: String, _ arguments: [String], input: String = "") async throws -> WebAuthBinary.Run {
        try await webauth.run(URL(fileURLWithPath: "/bin/sh"), ["-c", #"printf %s "$0" | "$@""#, input, program] + arguments)
    }

    /// No secret the provider saw or issued (tokens, codes, passwords) in `outputs`, as the canary test checks.
    func expectNoSecret(in outputs: [String], _ provider: OpenIDProvider, sourceLocation: SourceLocation = #_sourceLocation) {
        let secrets = provider.secretsSeen
        #expect(!secrets.isEmpty, sourceLocation: sourceLocation)
        for output in outputs {
            #expect(!secrets.contains { output.contains($0) }, "a secret in: \(output)", sourceLocation: sourceLocation)
        }
    }

    // MARK: kubectl

    /// A kubeconfig for the local API with docs/tools.md's `users` block, its profile replaced by `profile`.
    func kubeconfig(_ server: TokenCheckingServer, profile: String) throws -> String {
        let users = try Guides.block(after: "<!-- kubeconfig user -->", language: "yaml")
            .replacingOccurrences(of: "--profile, work]", with: "--profile, \(profile)]")
        return try webauth.file("kubeconfig-\(profile)", """
            apiVersion: v1
            kind: Config
            clusters:
            - name: local
              cluster:
                server: https://127.0.0.1:\(server.port)
                certificate-authority: \(server.certificate)
            contexts:
            - name: local
              context: {cluster: local, user: work}
            current-context: local
            \(users)

            """)
    }

    @Test("kubectl (docs/tools.md's exec block) gets the token from kubernetes-credential and the API lets it in; not signed in and no terminal: kubectl fails with the plugin's message")
    func kubectl() async throws {
        let provider = try await Self.provider()
        let token = try await signIn(provider, as: "work")
        let server = try await TokenCheckingServer(.kube, provider: provider, folder: webauth.home.appendingPathComponent("kube"))
        let pods = ["get", "--raw", "/api/v1/namespaces/default/pods"]
        let allowed = try await webauth.run(URL(fileURLWithPath: "/usr/bin/kubectl"), ["--kubeconfig", try kubeconfig(server, profile: "work")] + pods)
        let refused = try await webauth.run(URL(fileURLWithPath: "/usr/bin/kubectl"), ["--kubeconfig", try kubeconfig(server, profile: "nobody")] + pods)
        await server.stop()
        #expect(allowed.status == 0 && allowed.stdout.contains(#""kind":"PodList""#), "stderr: \(allowed.stderr)")
        #expect(refused.status != 0, "stdout: \(refused.stdout)")
        #expect(refused.stderr.contains("no saved sign-in named 'nobody'") && refused.stderr.contains("spec.interactive is false")
                    && refused.stderr.contains("Run `webauth login --profile nobody` in a terminal"), "stderr: \(refused.stderr)")

        let direct = try await webauth(["kubernetes-credential", "--profile", "work"], environment: [
            "KUBERNETES_EXEC_INFO": #"{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","spec":{"interactive":false}}"#])
        #expect(direct.status == 0 && direct.stderr.isEmpty, "stderr: \(direct.stderr)")
        let credential = try JSONValue(parsing: direct.stdout)
        #expect(credential["apiVersion"] == .string("client.authentication.k8s.io/v1") && credential["kind"] == .string("ExecCredential"))
        #expect(credential["status"]?["token"] == .string(token))
        let expiry = try #require(credential["status"]?["expirationTimestamp"]?.stringValue.flatMap { ISO8601DateFormatter().date(from: $0) })
        #expect(expiry > Date() && expiry < Date().addingTimeInterval(Double(provider.accessTokenLifetime) + 5))
        expectNoSecret(in: [allowed.stderr, refused.stdout, refused.stderr, direct.stderr], provider)
    }

    @Test("kubernetes-credential with spec.interactive and no sign-in signs in with the device grant (prompts on stderr), saves it, prints the ExecCredential")
    func kubernetesInteractiveSignIn() async throws {
        let provider = try await Self.provider()
        var webauth = self.webauth
        webauth.environment["KUBERNETES_EXEC_INFO"] = #"{"apiVersion":"client.authentication.k8s.io/v1","spec":{"interactive":true}}"#
        let run = try await webauth.signInOnPhone(["kubernetes-credential", "--profile", "phone", "--issuer", provider.issuer,
                                                   "--client-id", "webauth-demo"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("The Kubernetes client needs a credential") && run.stderr.contains("--flow device"), "stderr: \(run.stderr)")
        let credential = try JSONValue(parsing: run.stdout)
        #expect(credential["status"]?["token"] == .string(try await savedToken("phone")), "the sign-in was saved, and its token printed")
        let without = try await webauth(["kubernetes-credential", "--profile", "other"])
        #expect(without.status == 6 && without.stderr.contains("cannot sign in without a provider") && without.stdout.isEmpty,
                "no --issuer: stderr: \(without.stderr)")
        expectNoSecret(in: [run.stderr, without.stderr], provider)
    }

    // MARK: git

    @Test("git clones with docs/tools.md's helper line (oauth2 + the token as Basic password); erase makes the next get refresh; an unmapped host gets no answer")
    func git() async throws {
        let provider = try await Self.provider()
        let token = try await signIn(provider, as: "work")
        let root = webauth.home.appendingPathComponent("repositories")
        let source = webauth.home.appendingPathComponent("source").path
        for arguments in [["init", "-q", source], ["-C", source, "-c", "user.name=Alice", "-c", "user.email=alice@example.com",
                                                   "commit", "-q", "--allow-empty", "-m", "first"],
                          ["clone", "-q", "--bare", source, root.appendingPathComponent("repo.git").path]] {
            let run = try await webauth.run(URL(fileURLWithPath: "/usr/bin/git"), arguments)
            try #require(run.status == 0, "git \(arguments): \(run.stderr)")
        }
        let server = try await TokenCheckingServer(.git, provider: provider, folder: root)
        let remote = "http://127.0.0.1:\(server.port)/repo.git"
        var clones = 0
        func clone() async throws -> WebAuthBinary.Run {
            clones += 1
            return try await webauth.run(URL(fileURLWithPath: "/usr/bin/git"), ["clone", "-q", remote, webauth.home.appendingPathComponent("clone\(clones)").path])
        }
        let host = "protocol=http\nhost=127.0.0.1:\(server.port)\n"
        func fill() async throws -> WebAuthBinary.Run { try await run("git", ["credential", "fill"], input: host + "\n") }

        let anonymous = try await clone()
        #expect(anonymous.status != 0 && anonymous.stderr.contains("terminal prompts disabled"), "the server checks: \(anonymous.stderr)")
        let setup = try await webauth.run(URL(fileURLWithPath: "/bin/sh"), ["-c", try Guides.block(after: "<!-- git credential helper -->")])
        try #require(setup.status == 0, "stderr: \(setup.stderr)")
        let unmappedClone = try await clone()
        #expect(unmappedClone.status != 0 && unmappedClone.stderr.contains("terminal prompts disabled"),
                "docs/tools.md's mapping names git.example.com, not this server: \(unmappedClone.stderr)")
        try webauth.configure(#"{"credential_hosts": {"http://127.0.0.1:\#(server.port)": "work"}}"#)
        let cloned = try await clone()
        #expect(cloned.status == 0 && !cloned.stderr.contains(token), "stderr: \(cloned.stderr)")

        let first = try await fill()
        #expect(first.stdout.contains("username=oauth2\npassword=\(token)\n"), "stderr: \(first.stderr)")
        let refreshes = provider.refreshCount
        #expect(try await run("git", ["credential", "approve"], input: first.stdout + "\n").status == 0, "store is accepted")
        let rejected = try await run("git", ["credential", "reject"], input: first.stdout + "\n")
        #expect(rejected.status == 0 && rejected.stderr.isEmpty, "stderr: \(rejected.stderr)")
        #expect(provider.refreshCount == refreshes, "erase refreshes nothing itself")
        let second = try await fill()
        #expect(provider.refreshCount == refreshes + 1, "the get after erase refreshed")
        let renewed = try await savedToken("work")
        #expect(renewed != token && second.stdout.contains("password=\(renewed)\n"), "stderr: \(second.stderr)")
        #expect(try await clone().status == 0, "the refreshed token is let in")

        try webauth.configure(#"{"credential_hosts": {"git.example.com": "work"}}"#)
        let unmapped = try await fill()
        #expect(unmapped.status != 0 && unmapped.stderr.contains("terminal prompts disabled"), "no answer for 127.0.0.1: \(unmapped.stderr)")
        try webauth.configure(#"{"credential_hosts": {"127.0.0.1": "work"}}"#)
        let httpsOnly = try await fill()
        #expect(httpsOnly.status != 0, "a bare name is https on port 443, not this http server: \(httpsOnly.stderr)")
        try webauth.configure(#"{"credential_hosts": {"http://127.0.0.1:\#(server.port)": "work"}}"#)
        let mapped = try await fill()
        #expect(mapped.stdout.contains("password=\(renewed)\n"), "a loopback http key with its port serves it")
        await server.stop()
        expectNoSecret(in: [unmappedClone.stderr, cloned.stderr, first.stderr, rejected.stderr, second.stderr, unmapped.stderr, httpsOnly.stderr,
                            mapped.stderr], provider)
    }

    // MARK: Docker

    @Test("docker-credential-webauth (a symlink to webauth) speaks Docker's protocol: get, list, erase, store; an unmapped host is 'credentials not found'")
    func docker() async throws {
        let provider = try await Self.provider()
        let token = try await signIn(provider, as: "work")
        try webauth.configure(try Guides.block(after: "<!-- credential hosts -->", language: "json"))
        let helper = webauth.home.appendingPathComponent("bin/docker-credential-webauth")
        try FileManager.default.createDirectory(at: helper.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: helper, withDestinationURL: WebAuthBinary.binary)
        var stderr: [String] = []
        func docker(_ operation: String, _ input: String) async throws -> WebAuthBinary.Run {
            let result = try await run(helper.path, [operation], input: input)
            stderr.append(result.stderr)
            return result
        }

        let get = try await docker("get", "https://registry.example.com")
        #expect(get.status == 0, "stderr: \(get.stderr)")
        #expect(try JSONValue(parsing: get.stdout) == .object(["ServerURL": .string("https://registry.example.com"),
                                                               "Username": .string("oauth2"), "Secret": .string(token)]))
        let unknown = try await docker("get", "https://other.example.com")
        #expect(unknown.status == 1 && unknown.stdout == "credentials not found in native keychain\n", "stdout: \(unknown.stdout)")
        let notSignedIn = try await docker("get", "git.example.com")
        #expect(notSignedIn.status == 6 && notSignedIn.stdout.contains("no saved sign-in named 'default'"), "stdout: \(notSignedIn.stdout)")
        // Docker's own configuration says which hosts are registries: credential_hosts also maps a git host.
        let dockerConfig = URL(fileURLWithPath: try #require(webauth.environment["HOME"])).appendingPathComponent(".docker/config.json")
        try FileManager.default.createDirectory(at: dockerConfig.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Guides.block(after: "<!-- docker config -->", language: "json").write(to: dockerConfig, atomically: true, encoding: .utf8)
        let list = try await docker("list", "")
        // Before: {"registry.example.com", "git.example.com", "http://localhost:8080"}, a git host and a URL among them.
        #expect(try JSONValue(parsing: list.stdout) == .object(["registry.example.com": .string("oauth2")]), "stdout: \(list.stdout)")
        try #"{"credsStore": "webauth", "credHelpers": {"registry.example.com": "desktop"}, "auths": {"localhost:8080": {}, "registry.example.com": {}, "other.example.com": {}}}"#
            .write(to: dockerConfig, atomically: true, encoding: .utf8)
        let stored = try await docker("list", "")
        #expect(try JSONValue(parsing: stored.stdout) == .object(["localhost:8080": .string("oauth2")]),
                "the store's registries that get serves, but one another helper has: \(stored.stdout)")
        try "{not json".write(to: dockerConfig, atomically: true, encoding: .utf8)
        let broken = try await docker("list", "")
        #expect(broken.status == 64 && broken.stdout.hasPrefix("Docker's configuration \(dockerConfig.path) is not JSON: "), "stdout: \(broken.stdout)")
        #expect(Newcomer.lines(broken.stderr).count == 1 && !broken.stderr.contains("ParseError"), "stderr: \(broken.stderr)")
        let store = try await docker("store", #"{"ServerURL":"https://registry.example.com","Username":"oauth2","Secret":"typed"}"#)
        #expect(store.status == 64 && store.stderr.contains("does not store passwords"), "stderr: \(store.stderr)")

        let refreshes = provider.refreshCount
        #expect(try await docker("erase", "https://registry.example.com").status == 0)
        let again = try await docker("get", "registry.example.com")
        #expect(provider.refreshCount == refreshes + 1, "the get after erase refreshed")
        #expect(try JSONValue(parsing: again.stdout)["Secret"] == .string(try await savedToken("work")))
        #expect(try JSONValue(parsing: again.stdout)["Secret"] != .string(token))
        expectNoSecret(in: stderr + [unknown.stdout, notSignedIn.stdout, store.stdout], provider)

        try webauth.configure(#"{"credential_host": {"registry.example.com": "work"}}"#)
        let misspelt = try await docker("get", "https://registry.example.com")
        #expect(misspelt.status == 64 && misspelt.stderr.contains("unknown key 'credential_host' (did you mean 'credential_hosts'?)"),
                "stderr: \(misspelt.stderr)")
        try webauth.configure(#"{"credential_hosts": {"https://registry.example.com/v2": "work"}}"#)
        let path = try await docker("get", "https://registry.example.com")
        #expect(path.status == 64 && path.stderr.contains("is not a host; write it as name or name:port"), "stderr: \(path.stderr)")
    }
}
