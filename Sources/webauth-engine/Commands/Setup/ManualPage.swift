import Foundation
import WebAuthCommandLine

/// One man page in mdoc, from a command's `--help` text: its overview becomes NAME and
/// DESCRIPTION, its usage SYNOPSIS, and each section of options a tagged list.
struct ManualPage {
    let name: String
    let help: String
    let date: Date
    let seeAlso: [String]

    var text: String {
        var sections = Self.sections(of: help)
        let overview = sections.removeValue(forKey: "OVERVIEW") ?? []
        let usage = (sections.removeValue(forKey: "USAGE") ?? []).joined(separator: " ")
        let paragraphs = overview.split(separator: "", omittingEmptySubsequences: true).map { $0.joined(separator: " ") }
        var lines = [".Dd \(Self.dateFormatter.string(from: date))", ".Dt \(name.uppercased()) 1", ".Os", ".Sh NAME",
                     ".Nm \(name)", ".Nd \(Self.escaped(paragraphs.first ?? name))", ".Sh SYNOPSIS", Self.escaped(usage)]
        if paragraphs.count > 1 {
            lines.append(".Sh DESCRIPTION")
            lines += paragraphs.dropFirst().flatMap { [Self.escaped($0), ".Pp"] }.dropLast()
        }
        for title in Self.order(sections.keys) {
            lines += [".Sh \(title)", ".Bl -tag -width 6n"]
            for (term, description) in Self.items(sections[title] ?? []) {
                lines += [".It \(Self.escaped(term))"] + (description.isEmpty ? [] : [Self.escaped(description)])
            }
            lines.append(".El")
        }
        lines += [".Sh SEE ALSO", seeAlso.map { ".Xr \($0) 1" }.joined(separator: " ,\n")]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The help text's sections by title (`OVERVIEW`, `USAGE`, `OPTIONS`, an option group's
    /// title…), their lines in order; the overview keeps its blank lines between paragraphs.
    static func sections(of help: String) -> [String: [String]] {
        var sections: [String: [String]] = [:]
        var current = "OVERVIEW"
        for line in help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let colon = line.firstIndex(of: ":"), !line.hasPrefix(" "), line[..<colon].allSatisfy({ $0.isUppercase || $0 == " " || $0 == "-" }),
               !line[..<colon].isEmpty {
                current = String(line[..<colon])
                let rest = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                sections[current, default: []] += rest.isEmpty ? [] : [rest]
            } else if current == "OVERVIEW" || !line.trimmingCharacters(in: .whitespaces).isEmpty {
                sections[current, default: []].append(line.trimmingCharacters(in: .whitespaces).isEmpty ? "" : line)
            }
        }
        return sections
    }

    /// A section's items: a line indented by two spaces starts one (its term, then its text after
    /// two or more spaces); a deeper line goes on with the text.
    static func items(_ lines: [String]) -> [(String, String)] {
        var items: [(String, String)] = []
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("  "), !line.hasPrefix("   ") {
                let textBelow = index + 1 < lines.count && lines[index + 1].hasPrefix("   ")
                items.append(textBelow ? (trimmed, "") : Self.termAndText(of: line))
            } else if let last = items.popLast() {
                items.append((last.0, (last.1 + " " + trimmed).trimmingCharacters(in: .whitespaces)))
            }
        }
        return items
    }

    /// An item line's term and text. ArgumentParser starts the text in column 26 when the term
    /// fits before it, so a term of 23 characters is followed by one space only (`--settle-time
    /// <seconds> Fail when…`); a longer term stands alone, its text on the deeper line below.
    static func termAndText(of line: String) -> (String, String) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.components(separatedBy: "  ")
        guard parts.count == 1, line.count > textColumn, line.prefix(textColumn).hasSuffix(" ") else {
            return (parts[0], parts.dropFirst().joined(separator: " ").trimmingCharacters(in: .whitespaces))
        }
        return (line.prefix(textColumn).trimmingCharacters(in: .whitespaces), line.dropFirst(textColumn).trimmingCharacters(in: .whitespaces))
    }

    /// The column where ArgumentParser's help puts an item's text (`HelpGenerator.labelColumnWidth`).
    static let textColumn = 26

    /// Option groups first, in the help's order as far as it can be known (alphabetical), then OPTIONS and SUBCOMMANDS.
    static func order(_ titles: some Collection<String>) -> [String] {
        let last = ["ARGUMENTS", "OPTIONS", "SUBCOMMANDS"]
        return titles.filter { !last.contains($0) }.sorted() + last.filter(titles.contains)
    }

    /// Text safe in a roff line: backslashes doubled as `\e`, hyphens as `\-`, a leading dot or quote guarded.
    static func escaped(_ text: String) -> String {
        let body = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        return body.hasPrefix(".") || body.hasPrefix("'") ? "\\&" + body : body
    }

    private static let dateFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "MMMM d, yyyy"
        return formatter
    }()
}
