import Foundation
import SignInFiles

/// The files a user gives webauth, read through the entries the CLI reads them with (the text as
/// the file's contents, so no file is written per input), then the parts of the value that walk it.
enum FileFormatFuzzing {
    /// A login script, its steps' descriptions (which recurse into blocks) and its variables.
    static func loginScript(_ text: String) {
        guard let script = try? LoginScript(text: text, path: "fuzz.yaml") else { return }
        _ = script.steps.map(\.description)
        _ = script.variableNames
    }

    /// A batch file and its first of two shards.
    static func batch(_ text: String) {
        guard let batch = try? LoginBatch(text: text, path: "fuzz.yaml") else { return }
        _ = batch.shard(0, of: 2)
    }

    /// A configuration file and every key it may hold, read as each kind of value.
    static func configuration(_ data: Data) {
        guard let file = try? ConfigurationFile(data: data, path: "fuzz.json") else { return }
        for key in ConfigurationFile.keys {
            _ = try? file.string(key)
            _ = try? file.bool(key)
            _ = try? file.scopes(key)
            _ = try? file.parameters(key)
        }
    }
}
