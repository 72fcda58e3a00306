import Foundation
import TestSupport
import Testing

/// The guides' Swift examples cannot rot: each ```swift block of README.md, docs/ and the DocC
/// articles is the visible part of a file in ReadmeSnippets/, which this target compiles, or of
/// the example application's manifest, which CI builds (`Examples/GTKSignIn/check`). A file's own
/// lines (imports, the function around the example, the names it assumes) sit between
/// `// snippet.hide` and `// snippet.show`.
@Suite("README snippets")
struct ReadmeSnippetTests {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    /// README's SwiftPM lines are the example application's, so what a reader copies is what builds here.
    static let exampleManifest = "Examples/GTKSignIn/Package.swift"

    /// What `source` shows: its lines outside `snippet.hide` … `snippet.show`, leading comments dropped.
    static func visiblePart(of source: String) -> String {
        var shown = true
        var lines: [Substring] = []
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            switch line.trimmingCharacters(in: .whitespaces) {
            case "// snippet.hide": shown = false
            case "// snippet.show": shown = true
            default: if shown { lines.append(line) }
            }
        }
        return lines.drop { $0.hasPrefix("//") }.joined(separator: "\n").trimmingCharacters(in: .newlines)
    }

    @Test("every ```swift block of the guides is identical to the visible part of a compiled twin, and every twin is in a guide")
    func snippetsAreCompiled() throws {
        let snippets = try FileManager.default.contentsOfDirectory(atPath: Self.tests.appendingPathComponent("ReadmeSnippets").path)
            .filter { $0.hasSuffix(".swift") }.sorted().map { "Tests/WebAuthSessionTests/ReadmeSnippets/\($0)" }
        var compiled: [String: String] = [:]
        for twin in snippets + [Self.exampleManifest] {
            compiled[Self.visiblePart(of: try String(contentsOf: Guides.root.appendingPathComponent(twin), encoding: .utf8))] = twin
        }
        var blocks: [String] = []
        for guide in try Guides.files() {
            for block in Guides.blocks("swift", in: try Guides.text(guide)) {
                blocks.append(block)
                #expect(compiled[block] != nil, "\(guide)'s block has no compiled twin in ReadmeSnippets/ or \(Self.exampleManifest) (copy it there, or the edit back):\n\(block)")
            }
        }
        #expect(blocks.count >= 12)
        for (visible, twin) in compiled {
            #expect(blocks.contains(visible), "\(twin) is in no guide as written:\n\(visible)")
        }
    }
}
