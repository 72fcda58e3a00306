import Foundation
@testable import SignInFiles
import TestSupport
import Testing

/// docs/schemas/login-script.schema.json and the Swift parser read the same format: the guides'
/// scripts and every script in Fixtures/login-scripts/ pass both, and the schema is strict.
@Suite("Login script schema")
struct LoginScriptSchemaTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

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
        let folder = root.appendingPathComponent("Tests/WebAuthSessionTests/Fixtures/login-scripts")
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "yaml" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Writes each of `texts` to a file of its own in a new directory and returns their paths.
    static func files(_ texts: [String]) throws -> [String] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scripts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try texts.enumerated().map { index, text in
            let file = directory.appendingPathComponent("script-\(index + 1).yaml")
            try text.write(to: file, atomically: true, encoding: .utf8)
            return file.path
        }
    }

    /// scripts/check-json-schema on `files`: its exit status and what it printed.
    static func check(_ files: [String]) async throws -> (status: Int32, output: String) {
        let child = try ChildProcess(root.appendingPathComponent("scripts/check-json-schema").path,
                                     [root.appendingPathComponent("docs/schemas/login-script.schema.json").path] + files,
                                     environment: ProcessInfo.processInfo.environment, stdout: .pipe, stderr: .pipe)
        let output = await child.outputToEnd()
        return (await child.exitStatus(), String(decoding: output, as: UTF8.self))
    }

    @Test("the guides' scripts and every fixture script pass the schema and the Swift parser")
    func documentedScriptsAreValid() async throws {
        let readme = try Self.guideScripts()
        let fixtures = try Self.fixtureScripts()
        #expect(readme.count >= 3 && fixtures.count >= 5)
        let paths = try Self.files(readme) + fixtures.map(\.path)
        let checked = try await Self.check(paths)
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
        let path = try Self.files([text])[0]
        #expect(try await Self.check([path]).status == 1, "the schema accepted \(text)")
        #expect(throws: LoginScriptFileError.self, "the parser accepted \(text)") { try LoginScript(contentsOfFile: path) }
    }

    @Test("the schema already knows the type step and the totp value source")
    func typeAndTOTP() async throws {
        let paths = try Self.files([
            "steps:\n  - type: '#otp'\n    totp: {secret_env: TOTP_SECRET, algorithm: SHA256, digits: 8, period: 30}\n  - type: '#user'\n    value: alice\n",
        ])
        #expect(try await Self.check(paths).status == 0)
        let wrong = try Self.files(["steps: [{type: '#otp', totp: {secret: inline}}]"])
        #expect(try await Self.check(wrong).status == 1, "a secret written in the script")
    }
}
