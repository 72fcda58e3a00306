import Foundation
@testable import SignInFiles
import TestSupport
import Testing

/// docs/schemas/login-script.schema.json and the Swift parser read the same format: the guides'
/// scripts and every script in Fixtures/login-scripts/ pass both, and the schema is strict.
@Suite("Login script schema")
struct LoginScriptSchemaTests {

    /// The ```yaml blocks of the guides (README.md, docs/, the DocC articles) that are login scripts (those with `steps:`).
    static func guideScripts() throws -> [String] {
        try guideBlocks().filter { $0.contains("steps:") }
    }

    /// The ```yaml blocks of the guides, each ending with a newline as a file would.
    static func guideBlocks() throws -> [String] {
        try Guides.blocks("yaml").map { $0 + "\n" }
    }

    /// The scripts in WebAuthSessionTests' Fixtures/login-scripts/ (read by path: the engine's tests run them).
    static func fixtureScripts() throws -> [URL] {
        let folder = Guides.root.appendingPathComponent("Tests/WebAuthSessionTests/Fixtures/login-scripts")
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "yaml" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test("the guides' scripts and every fixture script pass the schema and the Swift parser")
    func documentedScriptsAreValid() async throws {
        let readme = try Self.guideScripts()
        let fixtures = try Self.fixtureScripts()
        #expect(readme.count >= 3 && fixtures.count >= 5)
        let paths = try LoginScriptSchema.files(readme) + fixtures.map(\.path)
        let checked = try await LoginScriptSchema.check(paths)
        #expect(checked.status == 0, "\(checked.output)")
        for path in paths {
            #expect(throws: Never.self, "\(path)") { try LoginScript(contentsOfFile: path) }
        }
    }

    @Test("the schema refuses what the parser refuses", arguments: [
        "steps: [{clik: '#a'}]",
        "steps: [{click: '#a', fill: '#b', value: x}]",
        "steps: [{fill: '#a'}]",
        "steps: [{fill: '#a', env: A, value: b}]",
        "steps: [{fill: '#a', env: A, pass_environment: [B]}]",
        "steps: [{click: '#a', value: x}]",
        "steps: [{click: '#a', optional_timeout: 2}]",
        "steps: [{javascript: '1', optional: true}]",
        "steps: [{select: '#a'}]",
        "steps: [{wait_for_url: {matches: '(unclosed'}}]",
        "steps: [{when: '#a'}]",
        "steps: [{when: '#a', steps: [{dance: '#b'}]}]",
        "steps: []\nsetle_time: 3",
        "steps: []\noptional_timeout: 0",
        "steps: []\nsettle_time: 2.5e64",
        "steps: [{click: '#a', optional: true, optional_timeout: 86401}]",
    ])
    func strict(text: String) async throws {
        let path = try LoginScriptSchema.files([text])[0]
        #expect(try await LoginScriptSchema.check([path]).status == 1, "the schema accepted \(text)")
        #expect(throws: LoginScriptFileError.self, "the parser accepted \(text)") { try LoginScript(contentsOfFile: path) }
    }

    @Test("the schema already knows the type step and the totp value source")
    func typeAndTOTP() async throws {
        let paths = try LoginScriptSchema.files([
            "steps:\n  - type: '#otp'\n    totp: {secret_env: TOTP_SECRET, algorithm: SHA256, digits: 8, period: 30}\n  - type: '#user'\n    value: alice\n",
        ])
        #expect(try await LoginScriptSchema.check(paths).status == 0)
        let wrong = try LoginScriptSchema.files(["steps: [{type: '#otp', totp: {secret: inline}}]"])
        #expect(try await LoginScriptSchema.check(wrong).status == 1, "a secret written in the script")
    }
}
