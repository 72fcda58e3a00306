import Foundation
import Testing

/// The library changes no process-wide state at run time: what it does is decided by the
/// configuration and options passed in. The one exception is the environment GTK and WebKit's
/// processes read, set in one file before GTK starts.
@Suite("Global state")
struct GlobalStateTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// The one file allowed to change the process environment.
    static let environmentFile = "WebAuthSession/Runtime/GTKEnvironment.swift"

    @Test("setenv, unsetenv, putenv and clearenv appear in Sources/ only in Runtime/GTKEnvironment.swift")
    func environmentIsChangedInOnePlace() throws {
        let call = try Regex(#"\b(setenv|unsetenv|putenv|clearenv)\s*\("#)
        let files = try #require(FileManager.default.subpaths(atPath: Self.sources.path))
            .filter { $0.hasSuffix(".swift") || $0.hasSuffix(".h") || $0.hasSuffix(".c") }
        #expect(files.contains(Self.environmentFile))
        var offenders: [String] = []
        for file in files where file != Self.environmentFile {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") && line.contains(call) {
                offenders.append("Sources/\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(offenders.isEmpty, "the environment is changed outside \(Self.environmentFile):\n\(offenders.joined(separator: "\n"))")
    }
}
