import Foundation

/// Who a caller is, as far as the bus and `/proc` can tell: a Flatpak app by its app ID (from
/// `/proc/PID/root/.flatpak-info`, which the sandbox cannot change), anything else by the path of
/// its executable, and an interpreter (python3, gjs, node, perl) also by the script it runs.
/// This identifies an app; it does not authenticate one: an unsandboxed process of the same user
/// can run any executable, or read the saved sign-ins directly.
public struct CallerApplication: Sendable, Hashable, CustomStringConvertible {
    /// What the app is.
    public enum Kind: Sendable, Hashable {
        /// A Flatpak app, by its app ID.
        case flatpak(appID: String)
        /// A program, by its executable's path, and for an interpreter the script it runs.
        case executable(path: String, script: String?)
        /// `webauth` itself (the broker's own executable), which reads the saved sign-ins anyway.
        case webauth
    }

    /// What the app is.
    public let kind: Kind

    /// The app `kind`.
    public init(_ kind: Kind) {
        self.kind = kind
    }

    /// The name its consent is remembered under, and `webauth broker --grant` takes: the app ID,
    /// the executable's path, or the interpreter's path and the script's, separated by a space.
    public var id: String {
        switch kind {
        case .flatpak(let appID): appID
        case .executable(let path, let script?): "\(path) \(script)"
        case .executable(let path, nil): path
        case .webauth: "webauth"
        }
    }

    public var description: String {
        switch kind {
        case .flatpak(let appID): appID
        case .executable(let path, let script?): "\(URL(fileURLWithPath: script).lastPathComponent) (\(path) \(script))"
        case .executable(let path, nil): path
        case .webauth: "webauth"
        }
    }

    /// The app of process `processID`, read from `/proc` (see ``CallerCredentials`` for the race).
    /// - Returns: `nil` when the process is gone or cannot be read.
    static func of(processID: pid_t, procRoot: String = "/proc") -> CallerApplication? {
        let process = "\(procRoot)/\(processID)"
        if let appID = FlatpakInfo.appID(in: process + "/root/.flatpak-info") { return CallerApplication(.flatpak(appID: appID)) }
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: process + "/exe") else { return nil }
        if executable == (try? FileManager.default.destinationOfSymbolicLink(atPath: procRoot + "/self/exe")) {
            return CallerApplication(.webauth)
        }
        let script = InterpreterScript.script(executable: executable, commandLine: Self.commandLine(process),
                                              workingDirectory: try? FileManager.default.destinationOfSymbolicLink(atPath: process + "/cwd"))
        return CallerApplication(.executable(path: executable, script: script))
    }

    /// The process's arguments, `argv[0]` first.
    private static func commandLine(_ process: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: process + "/cmdline") else { return [] }
        return data.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
    }
}
