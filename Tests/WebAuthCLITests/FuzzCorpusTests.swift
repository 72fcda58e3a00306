import Foundation
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
        #expect(run.stdout.contains("replayed \(inputs) inputs through redirect, callback, documents, id-token"))
    }
}
