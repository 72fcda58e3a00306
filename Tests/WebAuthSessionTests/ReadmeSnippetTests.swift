import Foundation
import Testing

/// README's Swift examples cannot rot: each ```swift block is the visible part of a file in
/// ReadmeSnippets/, which this target compiles, or of the example application's manifest, which CI
/// builds (`Examples/GTKSignIn/check`). A file's own lines (imports, the function around the
/// example, the names it assumes) sit between `// snippet.hide` and `// snippet.show`.
@Suite("README snippets")
struct ReadmeSnippetTests {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let readme = tests.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")
    /// README's SwiftPM lines are the example application's (issue 33.3).
    static let exampleManifest = "Examples/GTKSignIn/Package.swift"

    /// The ```swift blocks of `markdown`, in order.
    static func swiftBlocks(in markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

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

    @Test("every ```swift block in README.md is identical to the visible part of a compiled twin, and every twin is in README.md")
    func snippetsAreCompiled() throws {
        let root = Self.readme.deletingLastPathComponent()
        let snippets = try FileManager.default.contentsOfDirectory(atPath: Self.tests.appendingPathComponent("ReadmeSnippets").path)
            .filter { $0.hasSuffix(".swift") }.sorted().map { "Tests/WebAuthSessionTests/ReadmeSnippets/\($0)" }
        var compiled: [String: String] = [:]
        for twin in snippets + [Self.exampleManifest] {
            compiled[Self.visiblePart(of: try String(contentsOf: root.appendingPathComponent(twin), encoding: .utf8))] = twin
        }
        let blocks = Self.swiftBlocks(in: try String(contentsOf: Self.readme, encoding: .utf8))
        #expect(blocks.count >= 8)
        for block in blocks {
            #expect(compiled[block] != nil, "README.md's block has no compiled twin in ReadmeSnippets/ or \(Self.exampleManifest) (copy it there, or the edit back):\n\(block)")
        }
        for (visible, twin) in compiled {
            #expect(blocks.contains(visible), "\(twin) is not in README.md as written:\n\(visible)")
        }
    }
}
