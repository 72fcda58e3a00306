import Foundation

/// The project's documentation as the tests read it: README.md, the task guides under docs/ and
/// the DocC articles in `Sources/*/*.docc/`. A test that runs a documented block finds it by the
/// HTML comment before it (`<!-- exec and env -->`) in whichever guide holds it, so text can move
/// between guides without a test losing its block, and a block that is gone fails the test.
public enum Guides {
    /// The repository's root folder.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every guide, as a path relative to ``root``: README.md, then docs/ and the DocC catalogs, sorted.
    public static func files() throws -> [String] {
        let manager = FileManager.default
        var found: [String] = []
        for folder in ["docs"] + (try manager.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path).sorted().map { "Sources/\($0)" }) {
            guard let walk = manager.enumerator(atPath: root.appendingPathComponent(folder).path) else { continue }
            for case let path as String in walk where path.hasSuffix(".md") && (folder == "docs" || path.contains(".docc/")) {
                found.append("\(folder)/\(path)")
            }
        }
        return ["README.md"] + found.sorted()
    }

    /// The text of the guide at `path` (relative to ``root``).
    public static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The fenced blocks of `language` (a line that is exactly ```` ```language ````, up to a line
    /// that is exactly ```` ``` ````) of `markdown`, in order, without their fences.
    public static func blocks(_ language: String, in markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```\(language)" {
                current = []
            } else if let lines = current, line == "```" {
                blocks.append(lines.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The fenced blocks of `language` of every guide, guide by guide.
    public static func blocks(_ language: String) throws -> [String] {
        try files().flatMap { blocks(language, in: try text($0)) }
    }

    /// The first fenced block of `language` after `marker`, which must be in exactly one guide.
    public static func block(after marker: String, language: String = "sh") throws -> String {
        let holders = try files().filter { try text($0).contains(marker) }
        guard holders.count == 1, let guide = holders.first else { throw GuideError.marker(marker, foundIn: holders) }
        let content = try text(guide)
        guard let afterMarker = content.range(of: marker)?.upperBound,
              let open = content.range(of: "```\(language)\n", range: afterMarker..<content.endIndex)?.upperBound,
              let close = content.range(of: "\n```", range: open..<content.endIndex)?.lowerBound else {
            throw GuideError.noBlock(marker, language: language, guide: guide)
        }
        return String(content[open..<close])
    }

}

/// A guide does not hold what a test looks for.
public enum GuideError: Error, CustomStringConvertible {
    /// The marker is in no guide, or in several.
    case marker(String, foundIn: [String])
    /// The marker has no block of the language after it.
    case noBlock(String, language: String, guide: String)

    public var description: String {
        switch self {
        case .marker(let marker, let guides):
            guides.isEmpty ? "no guide holds \(marker)" : "\(marker) is in several guides: \(guides.joined(separator: ", "))"
        case .noBlock(let marker, let language, let guide): "\(guide) has no ```\(language) block after \(marker)"
        }
    }
}
