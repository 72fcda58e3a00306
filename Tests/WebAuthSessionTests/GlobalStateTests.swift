import Foundation
import Testing

/// The library changes no process-wide state at run time: what it does is decided by the
/// configuration and options passed in. The exceptions are the environment: the variables GTK and
/// WebKit's processes read, set by the engine in one file before GTK starts, and the secrets
/// `webauth` takes out of its own environment, in one file of the command line both executables
/// share (`webauth-tokens` never loads the engine, so it cannot ask the engine's file).
@Suite("Global state")
struct GlobalStateTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// The files allowed to change the process environment: the engine's, and the command line's.
    static let environmentFiles: Set = ["WebAuthSession/Runtime/GTKEnvironment.swift", "WebAuthCommandLine/Process/CommandEnvironment.swift"]

    @Test("setenv, unsetenv, putenv and clearenv appear in Sources/ only in Runtime/GTKEnvironment.swift and the command line's CommandEnvironment.swift")
    func environmentIsChangedInOnePlace() throws {
        let call = try Regex(#"\b(setenv|unsetenv|putenv|clearenv)\s*\("#)
        let files = try #require(FileManager.default.subpaths(atPath: Self.sources.path))
            .filter { $0.hasSuffix(".swift") || $0.hasSuffix(".h") || $0.hasSuffix(".c") }
        #expect(Self.environmentFiles.isSubset(of: files))
        var offenders: [String] = []
        for file in files where !Self.environmentFiles.contains(file) {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") && line.contains(call) {
                offenders.append("Sources/\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(offenders.isEmpty, "the environment is changed outside \(Self.environmentFiles.sorted()):\n\(offenders.joined(separator: "\n"))")
    }
}
