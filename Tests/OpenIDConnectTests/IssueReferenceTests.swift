import Foundation
import Testing

/// Code says why, not which issue asked for it: an issue's number in a comment sends a newcomer to
/// a tracker they may not have, where the reason would have fitted in the sentence. The notes and
/// the changelog (Markdown) may cite issues; code, tests and scripts do not.
@Suite("Issue numbers in code")
struct IssueReferenceTests {
    /// The package's root, three folders above this file.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folders of code, tests and scripts, and the manifest.
    static let places = ["Sources", "Tests", "CShims", "fuzz/webauth-fuzz", "scripts", "bench", "Examples", ".ci", "Package.swift"]

    @Test("no source, test, shim, script or benchmark names an issue by number")
    func noIssueNumbers() throws {
        let root = Self.packageRoot.standardizedFileURL
        var files: [URL] = []
        for place in Self.places {
            let url = root.appendingPathComponent(place)
            guard let found = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]) else {
                files.append(url)
                continue
            }
            files += found.compactMap { $0 as? URL }.filter { ["swift", "h", "py", "sh", ""].contains($0.pathExtension) }
        }
        #expect(files.count > 100, "the package's files were found")
        let reference = /[Ii]ssues? #?[0-9]/
        var offenders: [String] = []
        for file in files where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.contains(reference) {
                offenders.append("\(file.standardizedFileURL.path.dropFirst(root.path.count + 1)):\(number + 1)")
            }
        }
        #expect(offenders.isEmpty, "say the reason instead: \(offenders.joined(separator: ", "))")
    }
}
