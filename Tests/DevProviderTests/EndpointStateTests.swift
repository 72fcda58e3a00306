import Foundation
import Testing

/// The development provider is its endpoints, each a type that keeps its own state behind a
/// private lock, composed and routed by `OpenIDProvider`: not one type spread over files whose
/// shared state every endpoint may set. Read from the sources, as `ConflictMarkerTests` reads them.
@Suite("Development provider: each endpoint keeps its state")
struct EndpointStateTests {
    /// `Sources/DevProvider`, from this file's place in `Tests/DevProviderTests`.
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/DevProvider")

    static func files() throws -> [(name: String, text: String)] {
        try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }.sorted().map {
            ($0, try String(contentsOf: sources.appendingPathComponent($0), encoding: .utf8))
        }
    }

    @Test("no file extends OpenIDProvider: an endpoint is a type of its own")
    func noExtensions() throws {
        let files = try Self.files()
        #expect(files.count > 10, "the provider's sources were found")
        let extending = files.filter { $0.text.contains("extension OpenIDProvider") }.map(\.name)
        #expect(extending.isEmpty, "extend OpenIDProvider: \(extending.joined(separator: ", "))")
    }

    @Test("every lock a type holds is private: its state is changed through its own methods only")
    func privateLocks() throws {
        var shared: [String] = []
        for (name, text) in try Self.files() {
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.hasPrefix("    ") && !line.hasPrefix("     ") && Self.declaresLock(line) && !line.contains("private ") {
                shared.append("\(name):\(number + 1)")
            }
        }
        #expect(shared.isEmpty, "locked state others can reach: \(shared.joined(separator: ", "))")
    }

    /// Whether `line` declares a stored property that is a `LockedState` or a `Mutex`.
    static func declaresLock(_ line: Substring) -> Bool {
        let words = line.split(separator: " ")
        guard words.first?.hasPrefix("//") == false, let keyword = words.firstIndex(where: { $0 == "let" || $0 == "var" }),
              keyword + 2 < words.count else { return false }
        let rest = words[(keyword + 2)...].joined(separator: " ")
        return ["LockedState", "Mutex"].contains { rest.hasPrefix($0) || rest.hasPrefix("= \($0)") }
    }
}
