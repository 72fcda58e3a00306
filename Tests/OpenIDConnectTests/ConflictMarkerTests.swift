import Foundation
import Testing

/// A merge that stops on a conflict leaves `<<<<<<<`, `=======` and `>>>>>>>` lines in the file;
/// committed by mistake, they compile away in Markdown and stay unseen (it happened once, in
/// CHANGELOG.md). No text file of the package holds one.
@Suite("Merge conflict markers")
struct ConflictMarkerTests {
    /// The package's root, three folders above this file.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The kinds of file we write by hand, and the scripts (which have no extension).
    static let textExtensions: Set<String> = ["swift", "md", "h", "py", "yaml", "yml", "json", "xml", "sh", "txt", "toml", "service", ""]

    @Test("no source, document or script of the package has a line that is a merge conflict marker")
    func noMarkers() throws {
        let root = Self.packageRoot.standardizedFileURL
        let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey],
                                                                options: [.skipsHiddenFiles]))
            .compactMap { $0 as? URL }
            .filter { url in
                let path = url.standardizedFileURL.path.dropFirst(root.path.count)
                return !path.contains("/.build") && !path.hasPrefix("/ci-artifacts") && !path.contains("/fuzz/corpus/")
                    && Self.textExtensions.contains(url.pathExtension)
                    && (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
            }
        #expect(files.count > 100, "the package's files were found")
        var offenders: [String] = []
        for file in files {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.hasPrefix("<<<<<<< ") || line.hasPrefix(">>>>>>> ") || line == "=======" {
                offenders.append("\(file.standardizedFileURL.path.dropFirst(root.path.count + 1)):\(number + 1)")
            }
        }
        #expect(offenders.isEmpty, "conflict markers: \(offenders.joined(separator: ", "))")
    }
}
