import Foundation

/// The JSON schemas of docs/schemas/ as an outside validator applies them (scripts/check-json-schema):
/// for the schemas' own tests and for the scripts `webauth record` writes.
package enum LoginScriptSchema {
    /// Writes each of `texts` to a file of its own in a new directory and returns their paths.
    package static func files(_ texts: [String]) throws -> [String] {
        let directory = TemporaryFiles.folder("scripts")
        return try texts.enumerated().map { index, text in
            let file = directory.appendingPathComponent("script-\(index + 1).yaml")
            try text.write(to: file, atomically: true, encoding: .utf8)
            return file.path
        }
    }

    /// scripts/check-json-schema with docs/schemas/`schema`.schema.json on `files`: its exit status
    /// and what it printed.
    package static func check(_ files: [String], schema: String = "login-script") async throws -> (status: Int32, output: String) {
        let child = try ChildProcess(Guides.root.appendingPathComponent("scripts/check-json-schema").path,
                                     [Guides.root.appendingPathComponent("docs/schemas/\(schema).schema.json").path] + files,
                                     environment: ProcessInfo.processInfo.environment, stdout: .pipe, stderr: .pipe)
        let output = await child.outputToEnd()
        return (await child.exitStatus(), String(decoding: output, as: UTF8.self))
    }
}
