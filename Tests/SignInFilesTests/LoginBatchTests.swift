import Foundation
@testable import SignInFiles
import Testing
import TestSupport

/// Batch files (`webauth batch FILE`) and the `var:` value source their entries feed: the Swift
/// parser and docs/schemas/batch.schema.json read the same format.
@Suite("Login batch files and var values")
struct LoginBatchTests {
    @Test("{var: NAME} is a value source: the steps, http_auth and variableNames name it, and the schema knows it")
    func variableSource() async throws {
        let path = try LoginScriptSchema.files(["""
            http_auth: {username: alice, password: {var: proxy_password}}
            steps:
              - fill: "#username"
                var: username
              - type: "#password"
                var: password
              - fill: "#otp"
                var: otp
                optional: true
              - when: "#chooser"
                steps: [{fill: "#tenant", var: tenant}]
            """])[0]
        let script = try LoginScript(contentsOfFile: path)
        #expect(script.steps[0] == .fill("#username", .variable("username")))
        #expect(script.steps[1].description == "type into '#password' from var password")
        #expect(script.variableNames == ["username", "password", "otp", "tenant", "proxy_password"])
        #expect(script.variables == nil, "a script file gives no values")
        #expect(try await LoginScriptSchema.check([path], schema: "login-script").status == 0)
        let twoSources = try LoginScriptSchema.files(["steps: [{fill: '#a', var: a, env: A}]"])
        #expect(try await LoginScriptSchema.check(twoSources, schema: "login-script").status == 1)
        #expect(throws: LoginScriptFileError.self) { try LoginScript(contentsOfFile: twoSources[0]) }
    }

    @Test("a batch file lists names and values, literal or from env, a file or a command; JSON too")
    func parsing() async throws {
        let paths = try LoginScriptSchema.files([
            """
            - name: alice
              values:
                username: alice
                password: {env: ALICE_PASSWORD}
            - name: bob@example.com
              values:
                username: bob
                password: {file: /run/secrets/bob}
                otp_secret: {command: "pass show bob", pass_environment: [PASSWORD_STORE_DIR]}
            - name: carol
            """,
        ]) + [try Self.file("batch.json", #"[{"name": "dave", "values": {"username": "dave", "Password": {"env": "DAVE"}}}]"#)]
        #expect(try LoginBatch(contentsOfFile: paths[0]) == LoginBatch([
            .init(name: "alice", values: ["username": .literal("alice"), "password": .environment("ALICE_PASSWORD")]),
            .init(name: "bob@example.com", values: ["username": .literal("bob"), "password": .file("/run/secrets/bob"),
                                                    "otp_secret": .command("pass show bob", passing: ["PASSWORD_STORE_DIR"])]),
            .init(name: "carol", values: [:]),
        ]))
        #expect(try LoginBatch(contentsOfFile: paths[1]).entries == [.init(name: "dave", values: ["username": .literal("dave"),
                                                                                                "Password": .environment("DAVE")])])
        #expect(try await LoginScriptSchema.check(paths, schema: "batch").status == 0)
        let readme = try #require(try LoginScriptSchemaTests.guideBlocks().first { $0.hasPrefix("# users.yaml") }, "docs/batch.md's users file")
        let documented = try LoginScriptSchema.files([readme])
        #expect(try LoginBatch(contentsOfFile: documented[0]).entries.map(\.name) == ["alice", "bob"])
        #expect(try await LoginScriptSchema.check(documented, schema: "batch").status == 0)
    }

    @Test("the parser and the schema refuse the same mistakes, and the parser says where", arguments: [
        "- name: alice\n  values: {password: wonderland}",
        "- name: alice\n  values: {api_secret: s3cret}",
        "- name: alice\n- name: alice",
        "- name: ../alice",
        "- name: .alice",
        "- name: alice\n  valeus: {username: alice}",
        "- name: alice\n  values: {password: {env: A, file: B}}",
        "- name: alice\n  values: {password: {file: B, pass_environment: [C]}}",
        "- name: alice\n  values: {password: {vault: x}}",
        "name: alice",
    ])
    func strict(text: String) async throws {
        let path = try LoginScriptSchema.files([text])[0]
        #expect(throws: LoginBatchFileError.self, "the parser accepted \(text)") { try LoginBatch(contentsOfFile: path) }
        if text.contains("- name: alice\n- name: alice") { return }  // a name given twice: the parser's rule alone
        #expect(try await LoginScriptSchema.check([path], schema: "batch").status == 1, "the schema accepted \(text)")
    }

    @Test("a refused literal password says to use a source, at its line, without its value")
    func literalPasswordMessage() throws {
        let path = try LoginScriptSchema.files(["- name: alice\n  values:\n    username: alice\n    password: wonderland\n"])[0]
        #expect {
            try LoginBatch(contentsOfFile: path)
        } throws: { error in
            let text = "\(error)"
            return text.contains("line 4") && text.contains("password is a secret") && text.contains("{env: VAR}") && !text.contains("wonderland")
        }
    }

    @Test("shards split the list by position: every entry in exactly one shard")
    func shards() {
        let batch = LoginBatch((0..<7).map { LoginBatch.Entry(name: "user\($0)", values: [:]) })
        #expect(batch.shard(0, of: 2).map(\.name) == ["user0", "user2", "user4", "user6"])
        #expect(batch.shard(1, of: 2).map(\.name) == ["user1", "user3", "user5"])
        let thirds = (0..<3).flatMap { batch.shard($0, of: 3).map(\.name) }
        #expect(thirds.sorted() == batch.entries.map(\.name).sorted())
        #expect(batch.shard(0, of: 1) == batch.entries)
    }

    /// Writes `text` to a new file named `name` and returns its path.
    static func file(_ name: String, _ text: String) throws -> String {
        let directory = TemporaryFiles.folder("batch")
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}
