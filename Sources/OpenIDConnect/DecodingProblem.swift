/// A decoding failure of a file a person wrote, in words they can act on: where (`step 2`,
/// `step_timeout`) and what (`must be a number`), never a Swift type name or an enum dump.
package struct DecodingProblem: CustomStringConvertible, Sendable {
    /// Where in the document: the keys and (from 0) list positions.
    package let path: [String]
    /// What is wrong there.
    package let problem: String

    /// The problem `error` reports.
    package init(_ error: DecodingError) {
        switch error {
        case .dataCorrupted(let context):
            self.init(context.codingPath, context.debugDescription)
        case .keyNotFound(let key, let context):
            self.init(context.codingPath, "missing '\(key.stringValue)'")
        case .typeMismatch(let type, let context):
            self.init(context.codingPath, "must be \(Self.kind(type))")
        case .valueNotFound(let type, let context):
            self.init(context.codingPath, "must be \(Self.kind(type)), not empty")
        @unknown default:
            self.init([], "not readable")
        }
    }

    private init(_ codingPath: [any CodingKey], _ problem: String) {
        path = codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
        self.problem = problem
    }

    /// `step 2: must be a mapping`, `step_timeout: must be a number`, or the problem alone at the top.
    package var description: String {
        location.map { "\($0): \(problem)" } ?? problem
    }

    /// The path in words: list positions count from 1 (`step 2`, `item 1 of secret_hosts`).
    package var location: String? {
        var words: [String] = []
        for (index, component) in path.enumerated() {
            guard let position = Int(component) else { words.append(component); continue }
            let list = index > 0 ? path[index - 1] : ""
            if list == "steps" { words[words.count - 1] = "step \(position + 1)" } else { words.append("item \(position + 1)") }
        }
        return words.isEmpty ? nil : words.joined(separator: ", ")
    }

    /// What a value of `type` is called in a document.
    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "text"
        case is Bool.Type: return "true or false"
        case is any BinaryInteger.Type, is any BinaryFloatingPoint.Type: return "a number"
        default:
            // Decoders name their containers by their own types (Yams: `Mapping`, `Sequence`).
            let name = String(describing: type)
            if name.hasPrefix("Dictionary") || name.contains("Mapping") { return "a mapping (name: value)" }
            if name.hasPrefix("Array") || name.contains("Sequence") { return "a list" }
            return "a value of another kind"
        }
    }
}
