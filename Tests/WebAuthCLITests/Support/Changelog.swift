import Foundation

/// CHANGELOG.md as Keep a Changelog writes it: `## [Unreleased]` first, then one `## [X.Y.Z] - DATE`
/// section per release, newest first; and the rule that ties it to `webauth --version`.
struct Changelog {
    /// One `## [...]` section: its name (`Unreleased` or a version), its date, its lines that are not blank.
    struct Section {
        let name: String
        let date: String?
        let entries: [String]
    }

    /// A version `MAJOR.MINOR.PATCH`, ordered as Semantic Versioning orders them.
    struct Version: Comparable, CustomStringConvertible {
        let parts: [Int]

        init?(_ text: String) {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
            guard parts.count == 3, parts.allSatisfy({ $0 != nil }) else { return nil }
            self.parts = parts.compactMap { $0 }
        }

        static func < (left: Version, right: Version) -> Bool { left.parts.lexicographicallyPrecedes(right.parts) }
        var description: String { parts.map(String.init).joined(separator: ".") }
    }

    let sections: [Section]

    init(_ text: String) {
        var sections: [Section] = []
        var heading: (name: String, date: String?)?
        var entries: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("## ["), let close = line.firstIndex(of: "]") {
                if let heading { sections.append(Section(name: heading.name, date: heading.date, entries: entries)) }
                let date = line[line.index(after: close)...].trimmingCharacters(in: .whitespaces)
                heading = (String(line[line.index(line.startIndex, offsetBy: 4)..<close]),
                           date.hasPrefix("- ") ? String(date.dropFirst(2)) : nil)
                entries = []
            } else if heading != nil, !line.trimmingCharacters(in: .whitespaces).isEmpty {
                entries.append(line)
            }
        }
        if let heading { sections.append(Section(name: heading.name, date: heading.date, entries: entries)) }
        self.sections = sections
    }

    /// The `[Unreleased]` section, when it comes first.
    var unreleased: Section? { sections.first.flatMap { $0.name == "Unreleased" ? $0 : nil } }

    /// The released sections, newest first.
    var releases: ArraySlice<Section> { sections.dropFirst() }

    /// What is wrong between this changelog and the binary's `version`, or nil when they agree:
    /// `[Unreleased]` comes first and every release after it is `## [X.Y.Z] - YYYY-MM-DD`, newer
    /// above older; with entries in `[Unreleased]`, `version` is newer than every release (those
    /// entries become its release); with none, `version` is the newest release (this is it).
    func disagreement(with version: String) -> String? {
        guard let current = Version(version) else { return "webauth --version says '\(version)', not MAJOR.MINOR.PATCH" }
        guard let unreleased else { return "the first section is not ## [Unreleased]" }
        var released: [Version] = []
        for section in releases {
            guard let version = Version(section.name) else { return "## [\(section.name)] does not name a version MAJOR.MINOR.PATCH" }
            guard let date = section.date, date.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil else { return "## [\(section.name)] has no date YYYY-MM-DD" }
            if let newer = released.last, !(version < newer) { return "## [\(section.name)] stands below ## [\(newer)], which is not newer" }
            released.append(version)
        }
        guard let newest = released.first else {
            return unreleased.entries.isEmpty ? "[Unreleased] is empty and nothing was released" : nil
        }
        if unreleased.entries.isEmpty, current != newest {
            return "[Unreleased] is empty, so this is the release \(newest), but webauth --version says \(current)"
        }
        if !unreleased.entries.isEmpty, !(newest < current) {
            return "[Unreleased] has changes since \(newest), but webauth --version says \(current): raise WebAuthVersion.current"
        }
        return nil
    }
}
