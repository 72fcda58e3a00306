import Foundation
import Testing

/// The package has had no release (CHANGELOG.md has only [Unreleased]): a name that changed
/// leaves with its callers, and no deprecated alias is kept for code that cannot exist yet. From
/// the first release on, deprecation is how a public name leaves: this test goes then.
@Suite("No deprecated API before the first release")
struct DeprecationTests {
    @Test("Sources/ declares nothing deprecated")
    func nothingDeprecated() throws {
        let sources = GlobalStateTests.sources
        let files = try #require(FileManager.default.subpaths(atPath: sources.path)).filter { $0.hasSuffix(".swift") }
        var deprecated: [String] = []
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains("@available") && line.contains("deprecated") {
                deprecated.append("Sources/\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(deprecated.isEmpty, "deprecated declarations:\n\(deprecated.joined(separator: "\n"))")
        let changelog = try String(contentsOf: sources.deletingLastPathComponent().appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        #expect(changelog.split(separator: "\n").filter { $0.hasPrefix("## [") } == ["## [Unreleased]"], "a release came: deprecate, do not remove")
    }
}
