import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// `webauth batch FILE`: many test users signed in by one process through the warm pool, against
/// the development provider in this process.
@Suite("webauth batch (the built binary)", .startsWebKit(minutes: 5))
struct BatchCommandTests {
    var webauth = WebAuthBinary()

    /// Five users, each with a password of this run.
    static let users = (1...5).map {
        OpenIDProvider.User(username: "user\($0)", password: "password-\($0)-\(UUID().uuidString.prefix(8))", subject: "subject-\($0)",
                            name: "User \($0)", email: "user\($0)@example.com")
    }
    static let wrongPassword = "not-the-password-9b2e"

    /// The script every entry runs; its values come from the entry. Its steps wait up to 60 s: under
    /// the whole suite on a busy machine, a first page took more than 20 s to show.
    static let script = """
        step_timeout: 60
        steps:
          - fill: "#username"
            var: username
          - fill: "#password"
            var: password
          - press_enter: "#password"
        """

    /// The batch of ``users``: each its user name as a literal, its password from `$PASSWORD_<n>`.
    static let batch = users.enumerated().map { index, user in
        "- name: \(user.username)\n  values:\n    username: \(user.username)\n    password: {env: PASSWORD_\(index + 1)}\n"
    }.joined()

    init() {
        for (index, user) in Self.users.enumerated() { webauth.environment["PASSWORD_\(index + 1)"] = user.password }
        // Hermetic: the provider is on this machine, whatever proxy the machine names.
        for name in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] { webauth.environment[name] = "" }
    }

    /// Runs `webauth batch` on ``batch`` with ``script`` against `provider`.
    func batch(_ provider: OpenIDProvider, _ extra: [String] = [], environment: [String: String] = [:]) async throws -> WebAuthBinary.Run {
        try await webauth(["batch", try webauth.file("users-\(UUID().uuidString).yaml", Self.batch), "--issuer", provider.issuer,
                           "--client-id", "webauth-demo", "--script", try webauth.file("script-\(UUID().uuidString).yaml", Self.script)] + extra,
                          environment: environment)
    }

    /// The JSON lines of `output`, by their `name`.
    static func lines(_ output: String) throws -> [String: JSONValue] {
        try output.split(separator: "\n").reduce(into: [:]) { lines, line in
            let value = try JSONValue(parsing: String(line))
            lines[value["name"]?.stringValue ?? ""] = value
        }
    }

    /// No secret the provider saw or issued (codes, tokens, state, nonce, verifier, passwords) in `outputs`.
    static func expectNoSecret(in outputs: [String], _ provider: OpenIDProvider, sourceLocation: SourceLocation = #_sourceLocation) {
        let secrets = provider.secretsSeen.union(users.map(\.password) + [wrongPassword])
        #expect(provider.secretsSeen.count > users.count, sourceLocation: sourceLocation)
        for output in outputs {
            #expect(!secrets.contains { output.contains($0) }, "a secret in: \(output)", sourceLocation: sourceLocation)
        }
    }

    @Test("five users in one run: a JSON line each, the wrong password's an error (exit 7); --out files 0600, tokens only there")
    func batchOfFive() async throws {
        let provider = try await OpenIDProvider.start(users: Self.users)
        let out = webauth.home.appendingPathComponent("results")
        let artifacts = webauth.home.appendingPathComponent("failed")
        let run = try await batch(provider, ["--parallel", "2", "--out", out.path, "--tokens", "--artifacts", artifacts.path],
                                  environment: ["PASSWORD_3": Self.wrongPassword])
        #expect(run.status == 7, "the first failure's status; stderr: \(run.stderr)")
        let lines = try Self.lines(run.stdout)
        #expect(Set(lines.keys) == Set(Self.users.map(\.username)), "stdout: \(run.stdout)")
        for user in Self.users where user.username != "user3" {
            #expect(lines[user.username]?["status"] == .string("ok") && lines[user.username]?["exit_status"] == .number(0),
                    "\(user.username): \(lines[user.username].map(\.description) ?? "none")")
            #expect(lines[user.username]?["subject"] == .string(user.subject))
            #expect(lines[user.username]?["expires_in"]?.numberValue ?? 0 > 0)
        }
        #expect(lines["user3"]?["status"] == .string("error") && lines["user3"]?["exit_status"] == .number(7))
        #expect(lines["user3"]?["error"] == .string("script_failed"))
        #expect(lines["user3"]?["message"]?.stringValue?.contains(artifacts.appendingPathComponent("user3").path) == true, "its artefacts, in a folder of its own")
        #expect(FileManager.default.fileExists(atPath: artifacts.appendingPathComponent("user3/screenshot.png").path))
        #expect(!run.stdout.contains("access_token"), "no token on stdout, even with --tokens")
        Self.expectNoSecret(in: [run.stdout, run.stderr], provider)

        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(files == Self.users.map { "\($0.username).json" }, "one whole file per user, nothing half-written")
        var contents: [String] = []
        for file in files {
            let path = out.appendingPathComponent(file).path
            let mode = try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
            #expect(mode == 0o600, "\(file): \(String(mode, radix: 8))")
            let text = try String(contentsOfFile: path, encoding: .utf8)
            contents.append(text)
            let result = try JSONValue(parsing: text)
            #expect(result["name"]?.stringValue.map { "\($0).json" } == file)
            #expect((result["access_token"]?.stringValue != nil) == (result["status"] == .string("ok")), "\(file): tokens with --tokens, for a sign-in")
            #expect(try await schemaErrors(text, "batch-result").isEmpty)
        }
        for line in run.stdout.split(separator: "\n") { #expect(try await schemaErrors(String(line), "batch-result").isEmpty) }
        let passwords = Self.users.map(\.password) + [Self.wrongPassword]
        #expect(!contents.contains { text in passwords.contains { text.contains($0) } }, "never a password in a file")
    }

    @Test("--shard 0/2 and 1/2 together sign in every entry exactly once; --shard /2 takes its index from JOB_COMPLETION_INDEX")
    func shards() async throws {
        let provider = try await OpenIDProvider.start(users: Self.users)
        let first = try await batch(provider, ["--shard", "0/2"])
        let second = try await batch(provider, ["--shard", "1/2"])
        #expect(first.status == 0 && second.status == 0, "stderr: \(first.stderr) \(second.stderr)")
        let (one, two) = (try Self.lines(first.stdout), try Self.lines(second.stdout))
        #expect(Set(one.keys) == ["user1", "user3", "user5"] && Set(two.keys) == ["user2", "user4"], "entry k in shard k mod 2")
        #expect(first.stdout.split(separator: "\n").count + second.stdout.split(separator: "\n").count == Self.users.count, "each once")
        #expect((one.values.map { $0["status"] } + two.values.map { $0["status"] }).allSatisfy { $0 == .string("ok") })
        let indexed = try await batch(provider, ["--shard", "/2"], environment: ["JOB_COMPLETION_INDEX": "1"])
        #expect(indexed.status == 0, "stderr: \(indexed.stderr)")
        #expect(Set(try Self.lines(indexed.stdout).keys) == ["user2", "user4"])
        Self.expectNoSecret(in: [first.stdout, first.stderr, second.stdout, second.stderr, indexed.stdout, indexed.stderr], provider)
    }

    @Test("a sign-in whose --out file cannot be written fails the run (exit 1), with a warning; the others are written")
    func unwritableResult() async throws {
        let provider = try await OpenIDProvider.start(users: Self.users)
        let out = webauth.home.appendingPathComponent("results")
        try FileManager.default.createDirectory(at: out.appendingPathComponent("user3.json"), withIntermediateDirectories: true)
        let run = try await batch(provider, ["--shard", "0/2", "--out", out.path])
        #expect(run.status == 1, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("Warning: the result of user3 could not be written"), "stderr: \(run.stderr)")
        #expect(try Self.lines(run.stdout).values.allSatisfy { $0["status"] == .string("ok") }, "the sign-ins themselves worked")
        for name in ["user1", "user5"] {
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("\(name).json").path))
        }
    }

    @Test("usage errors exit 64 before any sign-in, saying what to give", arguments: [
        (["--shard", "2/2"], [:], "does not exist"),
        (["--shard", "a/2"], [:], "--shard takes I/N"),
        (["--shard", "0/0"], [:], "--shard takes I/N"),
        (["--shard", "1"], [:], "--shard takes I/N"),
        (["--shard", "/2"], ["JOB_COMPLETION_INDEX": ""], "JOB_COMPLETION_INDEX, which is not set"),
        (["--shard", "/2"], ["JOB_COMPLETION_INDEX": "x"], "not a shard index"),
        (["--tokens"], [:], "--tokens goes with --out"),
        (["--parallel", "0"], [:], "--parallel must be at least 1"),
    ] as [([String], [String: String], String)])
    func usage(arguments: [String], environment: [String: String], message: String) async throws {
        let closed = try PortReservation()  // never contacted: the command stops before any request
        let run = try await webauth(["batch", try webauth.file("users.yaml", Self.batch), "--issuer", "http://127.0.0.1:\(closed.port)",
                                     "--client-id", "webauth-demo", "--script", try webauth.file("script.yaml", Self.script)] + arguments,
                                    environment: environment)
        #expect(run.status == 64 && run.stderr.contains(message), "stderr: \(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test("an entry without a value the script reads, or a batch with no script, is a usage error naming it")
    func missingValues() async throws {
        let closed = try PortReservation()
        let common = ["--issuer", "http://127.0.0.1:\(closed.port)", "--client-id", "webauth-demo"]
        let users = try webauth.file("users.yaml", "- name: alice\n  values: {username: alice}\n")
        let missing = try await webauth(["batch", users, "--script", try webauth.file("script.yaml", Self.script)] + common)
        #expect(missing.status == 64 && missing.stderr.contains("the batch entry alice has no value password, which the script reads ({var: password})"),
                "stderr: \(missing.stderr)")
        let noScript = try await webauth(["batch", users] + common)
        #expect(noScript.status == 64 && noScript.stderr.contains("needs --script"), "stderr: \(noScript.stderr)")
        let literal = try await webauth(["batch", try webauth.file("literal.yaml", "- name: alice\n  values: {password: hunter2}\n"),
                                         "--script", try webauth.file("script.yaml", Self.script)] + common)
        #expect(literal.status == 64 && literal.stderr.contains("password is a secret") && !literal.stderr.contains("hunter2"),
                "stderr: \(literal.stderr)")
    }

    @Test("webauth login with a var step and no batch fails at that step, naming the variable (exit 7)")
    func variableOutsideABatch() async throws {
        let provider = try await OpenIDProvider.start(users: Self.users)
        let run = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless", "--store", "none",
                                     "--script", try webauth.file("script.yaml", Self.script)])
        #expect(run.status == 7, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("step 1 (fill '#username' from var username) failed: {var: username} has no value here"), "stderr: \(run.stderr)")
    }

    @Test("--help and docs/batch.md name the same options")
    func helpMatchesReadme() async throws {
        let help = try await webauth(["batch", "--help"])
        #expect(help.status == 0)
        let section = try Guides.text("docs/batch.md")
        let options = { (text: String) in Set(text.matches(of: /--[a-z][a-z-]+/).map { String($0.output) }) }
        let own: Set = ["--parallel", "--shard", "--out", "--tokens", "--timeout", "--script", "--artifacts", "--settle-time", "--scope", "--param"]
        #expect(own.isSubset(of: options(help.stdout)), "help: \(help.stdout)")
        #expect(own.isSubset(of: options(section)), "docs/batch.md lacks \(own.subtracting(options(section)))")
        #expect(options(section).isSubset(of: options(help.stdout)), "docs/batch.md names options batch lacks: \(options(section).subtracting(options(help.stdout)))")
    }

    /// Checks `output` against `docs/schemas/NAME.schema.json`; returns the complaints.
    func schemaErrors(_ output: String, _ name: String) async throws -> String {
        let document = try webauth.file("\(name)-\(UUID().uuidString).json", output)
        let check = try await webauth.run(InterfaceTests.root.appendingPathComponent("scripts/check-json-schema"),
                                          [InterfaceTests.root.appendingPathComponent("docs/schemas/\(name).schema.json").path, document])
        return check.status == 0 ? "" : check.stdout + check.stderr + " (status \(check.status))"
    }
}
