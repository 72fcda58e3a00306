import Foundation

/// The targets Package.swift declares, read from its text: each one's name, folder and the
/// package's own targets it depends on (products of other packages are not ours to place).
struct PackageTargets {
    struct Target {
        let name: String
        /// Its sources, relative to the package: `path:`, else Sources/NAME (Tests/NAME for a test target).
        let folder: String
        let dependencies: [String]
    }

    let all: [Target]

    /// `nil` when the manifest has no `targets:` list.
    init?(manifest: String) {
        let text = manifest.replacingOccurrences(of: #"(?m)(^|\s)//.*$"#, with: "$1", options: .regularExpression)
        // the package's `targets:` starts a line; a product's `targets:` follows its name
        guard let list = Self.bracketed(text, after: #"(?m)^\s*targets:\s*\["#) else { return nil }
        all = Self.elements(of: list).compactMap { element in
            guard let name = Self.firstString(in: element, after: "name:") else { return nil }
            let isTest = element.hasPrefix(".testTarget(")
            let folder = Self.firstString(in: element, after: "path:") ?? (isTest ? "Tests/\(name)" : "Sources/\(name)")
            let dependencies = Self.bracketed(element, after: #"dependencies:\s*\["#).map { list in
                Self.elements(of: list).compactMap { dependency -> String? in
                    if dependency.hasPrefix(".product(") { return nil }
                    if dependency.hasPrefix("\"") { return Self.firstString(in: dependency, after: "") }
                    return Self.firstString(in: dependency, after: "name:")
                }
            } ?? []
            return Target(name: name, folder: folder, dependencies: dependencies)
        }
    }

    /// The text inside the brackets that open at the end of the first match of the `opening` pattern in `text`.
    static func bracketed(_ text: String, after opening: String) -> Substring? {
        guard let start = text.range(of: opening, options: .regularExpression)?.upperBound else { return nil }
        var depth = 1
        var inString = false
        for index in text[start...].indices {
            let character = text[index]
            if character == "\"" { inString.toggle() }
            guard !inString else { continue }
            if "([{".contains(character) { depth += 1 }
            if ")]}".contains(character) { depth -= 1 }
            if depth == 0 { return text[start..<index] }
        }
        return nil
    }

    /// The comma-separated elements of a list's text, each trimmed.
    static func elements(of list: Substring) -> [String] {
        var elements: [String] = []
        var current = ""
        var depth = 0
        var inString = false
        for character in list {
            if character == "\"" { inString.toggle() }
            if !inString {
                if "([{".contains(character) { depth += 1 }
                if ")]}".contains(character) { depth -= 1 }
                if character == ",", depth == 0 {
                    elements.append(current)
                    current = ""
                    continue
                }
            }
            current.append(character)
        }
        elements.append(current)
        return elements.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    /// The first string literal after the first `label` in `text`.
    static func firstString(in text: String, after label: String) -> String? {
        guard let labelEnd = label.isEmpty ? text.startIndex : text.range(of: label)?.upperBound,
              let open = text[labelEnd...].firstIndex(of: "\""),
              let close = text[text.index(after: open)...].firstIndex(of: "\"") else { return nil }
        return String(text[text.index(after: open)..<close])
    }
}
