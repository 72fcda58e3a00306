import Foundation
import SignInFiles
import Testing

/// The fuzzers' seed corpus, replayed through every target by the normal build of
/// `webauth-fuzz`: what once was a finding stays a passing input. (The fuzzing itself is `fuzz/run`.)
@Suite("Fuzz corpus replay")
struct FuzzCorpusTests {
    @Test("every seed input goes through every parser without a crash")
    func replay() async throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("fuzz/corpus")
        let inputs = try FileManager.default.contentsOfDirectory(atPath: corpus.path).count
        let binary = WebAuthBinary.binary.deletingLastPathComponent().appendingPathComponent("webauth-fuzz")
        let run = try await WebAuthBinary().run(binary, [corpus.path])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.contains("replayed \(inputs) inputs through redirect, callback, documents, id-token, "
            + "login-script-yaml, login-script-json, batch, config, device-authorization, par"))
    }

    @Test("the seeds of the file targets are valid files, so fuzzing starts from what a user writes")
    func fileSeedsAreValid() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("fuzz/corpus")
        let names = try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted()
        var checked = 0
        for name in names where ["login-script-", "batch-", "config-"].contains(where: name.hasPrefix) {  // ctap seeds are binary
            let path = corpus.appendingPathComponent(name).path
            let text = try String(contentsOfFile: path, encoding: .utf8)
            switch name {
            case let name where name.hasPrefix("login-script-"): #expect(throws: Never.self, "\(name)") { try LoginScript(text: text, path: path) }
            case let name where name.hasPrefix("batch-"): #expect(throws: Never.self, "\(name)") { try LoginBatch(text: text, path: path) }
            case let name where name.hasPrefix("config-"):
                #expect(throws: Never.self, "\(name)") { try ConfigurationFile(data: Data(text.utf8), path: path) }
            default: continue
            }
            checked += 1
        }
        #expect(checked >= 6, "seeds of login-script-yaml, login-script-json, batch and config")
    }
}
