import Foundation
import TestSupport

/// The relative links of one guide (``Guides``), and whether each leads somewhere: a file or
/// folder of the repository, a heading of a Markdown file (GitHub's anchors), a DocC article
/// (`<doc:Name>`) or an image of the catalog's `Resources/`. Links to a scheme (`https:`,
/// `mailto:`) are not followed; text in code spans and code blocks is not a link.
struct GuideLinks {
    /// The guide, relative to the repository's root.
    let guide: String
    /// Its links as written: `[text](target)`, `![alt](target)`, `src="target"` and `<doc:Name>`.
    let targets: [String]

    init(_ guide: String) throws {
        self.guide = guide
        let prose = Self.prose(try Guides.text(guide))
        var targets = prose.matches(of: /!?\[[^\]]*\]\(([^)\s]+)\)/).map { String($0.output.1) }
        targets += prose.matches(of: /src="([^"]+)"/).map { String($0.output.1) }
        targets += prose.matches(of: /<doc:([A-Za-z0-9_-]+)>/).map { "doc:" + $0.output.1 }
        self.targets = targets.filter { $0.hasPrefix("doc:") || $0.firstMatch(of: /^[a-zA-Z][a-zA-Z0-9+.-]*:/) == nil }
    }

    /// The targets that lead nowhere.
    func broken() -> [String] {
        targets.filter { !resolves($0) }
    }

    private var folder: URL { Guides.root.appendingPathComponent(guide).deletingLastPathComponent() }
    private var catalog: URL? { guide.contains(".docc/") ? folder : nil }

    private func resolves(_ target: String) -> Bool {
        if target.hasPrefix("doc:"), let catalog {
            return FileManager.default.fileExists(atPath: catalog.appendingPathComponent(target.dropFirst(4) + ".md").path)
        }
        let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let path = parts[0].removingPercentEncoding ?? parts[0]
        let file = path.isEmpty ? Guides.root.appendingPathComponent(guide) : folder.appendingPathComponent(path)
        var exists = FileManager.default.fileExists(atPath: file.path)
        if !exists, let catalog, !path.contains("/") {  // a DocC image: Resources/NAME or Resources/NAME.png
            let resources = catalog.appendingPathComponent("Resources")
            exists = [path, path + ".png"].contains { FileManager.default.fileExists(atPath: resources.appendingPathComponent($0).path) }
        }
        guard exists else { return false }
        guard parts.count == 2, file.pathExtension == "md" else { return true }
        return (try? String(contentsOf: file, encoding: .utf8)).map { Self.anchors(in: $0).contains(parts[1]) } ?? false
    }

    /// `markdown` without its fenced code blocks and code spans.
    static func prose(_ markdown: String) -> String {
        withoutCodeBlocks(markdown).replacing(/`[^`\n]*`/, with: "")
    }

    /// `markdown` without its fenced code blocks.
    static func withoutCodeBlocks(_ markdown: String) -> String {
        var fenced = false
        var lines: [Substring] = []
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                fenced.toggle()
            } else if !fenced {
                lines.append(line)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// GitHub's anchors for the headings of `markdown`: lower case, punctuation dropped, spaces as `-`.
    static func anchors(in markdown: String) -> Set<String> {
        Set(withoutCodeBlocks(markdown).split(separator: "\n").compactMap { line -> String? in
            guard let heading = line.firstMatch(of: /^#{1,6} (.+)$/)?.output.1 else { return nil }
            let kept = heading.lowercased().replacing("`", with: "").unicodeScalars
                .filter { CharacterSet.alphanumerics.contains($0) || " -_".unicodeScalars.contains($0) }
            return String(String.UnicodeScalarView(kept)).replacing(" ", with: "-")
        })
    }
}
