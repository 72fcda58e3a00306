import Foundation
import OpenIDConnect
import Yams

/// A value a person writes as a file, in YAML or JSON (a subset of YAML): a login script
/// (``LoginScript``) or a batch file (``LoginBatch``). Both are read the same way, and a file that
/// is not valid is a ``YAMLFileError`` that says what is wrong and at which line and column.
public protocol YAMLDocument: Decodable, Sendable {
    /// What the file is called in messages: `login script`, `batch file`.
    static var fileKind: String { get }
}

extension YAMLDocument {
    /// Reads the file at `path`.
    /// - Throws: ``YAMLFileError``: the file cannot be read, or is not valid.
    public init(contentsOfFile path: String) throws(YAMLFileError<Self>) {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw .unreadable(path: path, message: error.localizedDescription)
        }
        try self.init(text: text, path: path)
    }

    /// Reads `text`, the contents of the file at `path` (which names it in messages).
    /// - Throws: ``YAMLFileError/invalid(path:message:)``.
    package init(text: String, path: String) throws(YAMLFileError<Self>) {
        do { self = try YAMLDecoder().decode(Self.self, from: text) } catch {
            throw .invalid(path: path, message: YAMLDocumentProblem.reason(error, in: text))
        }
    }
}

/// What is wrong with a YAML document, in words a person acts on.
enum YAMLDocumentProblem {
    /// What is wrong, and where: `line 3, column 5: step 1: unknown key 'clik' (did you mean 'click'?)`.
    static func reason(_ error: any Error, in text: String) -> String {
        // Yams reports a syntax error as a DecodingError wrapping its YamlError.
        if case DecodingError.dataCorrupted(let context) = error, let syntax = context.underlyingError as? YamlError { return describe(syntax) }
        switch error {
        case let error as YamlError: return describe(error)
        case let error as DecodingError:
            let problem = DecodingProblem(error)
            let mark = (try? Yams.compose(yaml: text)).flatMap { node(at: problem.path, in: $0) }?.mark
            return (mark.map { "line \($0.line), column \($0.column): " } ?? "") + problem.description
        default: return String(describing: error)
        }
    }

    /// A YAML (or JSON) syntax error on one line: its position and libyaml's problem, without the quoted source.
    private static func describe(_ error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            "line \(mark.line), column \(mark.column): \(problem)"
        case .duplicatedKeysInMapping(let duplicates, let context):
            "line \(context.mark.line), column \(context.mark.column): \(duplicates.map { "'\($0)'" }.joined(separator: ", ")) given twice"
        default:
            error.description.split(separator: "\n").first.map(String.init) ?? "not YAML"
        }
    }

    /// The node at `path` (mapping keys and list positions) below `root`.
    private static func node(at path: [String], in root: Node) -> Node? {
        path.reduce(Optional(root)) { node, component in
            guard let node else { return nil }
            if let position = Int(component), let list = node.sequence { return position < list.count ? list[position] : nil }
            return node.mapping?[component]
        }
    }
}
