import Foundation

/// Who a caller is, as far as the bus and `/proc` can tell.
///
/// - A caller that sees the broker's files (the same root and mount namespace, ``FilesystemView``)
///   is its executable's path, and an interpreter (python3, gjs, node, perl, ruby, a shell) also
///   the script it runs (``InterpreterScript``): those paths name files the broker sees too. A
///   `.flatpak-info` there is not read: it would be the broker's own root's, not a sandbox's.
/// - A caller in a view of its own is its sandbox's identity, which the sandbox cannot change: a
///   Flatpak app's ID (``FlatpakInfo``) or a snap's name (``SnapConfinement``). Without one, it
///   is refused: its `/proc/PID/exe` and `cmdline` name files inside a root it may have built
///   itself (bubblewrap, a container, a chroot, a systemd unit's private mounts), so any path
///   it shows could be one another app was granted.
///
/// This identifies an app; it does not authenticate one: an unsandboxed process of the same user
/// can run any executable, make a sandbox with any `.flatpak-info` (unprivileged bubblewrap),
/// or read the saved sign-ins directly.
public struct CallerApplication: Sendable, Hashable, CustomStringConvertible {
    /// What the app is.
    public enum Kind: Sendable, Hashable {
        /// A Flatpak app, by its app ID.
        case flatpak(appID: String)
        /// A strictly confined snap, by its name (with a parallel install's `_KEY`).
        case snap(name: String)
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
    /// `snap.NAME`, the executable's path, or the interpreter's path and the script's, separated
    /// by a space. None can be taken for another: an app ID has at least three elements, a snap's
    /// name no dot, a path starts with `/`.
    public var id: String {
        switch kind {
        case .flatpak(let appID): appID
        case .snap(let name): "snap.\(name)"
        case .executable(let path, let script?): "\(path) \(script)"
        case .executable(let path, nil): path
        case .webauth: "webauth"
        }
    }

    public var description: String {
        switch kind {
        case .flatpak(let appID): appID
        case .snap(let name): "\(name) (snap)"
        case .executable(let path, let script?): "\(URL(fileURLWithPath: script).lastPathComponent) (\(path) \(script))"
        case .executable(let path, nil): path
        case .webauth: "webauth"
        }
    }

    /// Whether `id` names an interpreter alone (its path, no script): what is allowed to it is
    /// allowed to whatever that interpreter runs with no script file of its own (code on its
    /// command line, a module, standard input, an interactive session).
    public static func namesInterpreterAlone(_ id: String) -> Bool {
        id.hasPrefix("/") && !id.contains(" ") && InterpreterSyntax.of(id) != nil
    }

    /// The app of process `processID`, read from `procRoot` (see ``CallerCredentials`` for the race).
    /// - Throws: ``CallerIdentityError/unreadable(_:)`` when the process is gone or cannot be read,
    ///   ``CallerIdentityError/untrusted(_:)`` when nothing it shows can name it.
    static func of(processID: pid_t, procRoot: String = "/proc") throws(CallerIdentityError) -> CallerApplication {
        let process = "\(procRoot)/\(processID)"
        guard try FilesystemView.isShared(by: process, with: procRoot + "/self") else {
            if let appID = try FlatpakInfo.appID(in: process + "/root/.flatpak-info") { return CallerApplication(.flatpak(appID: appID)) }
            if let name = SnapConfinement.name(ofProcess: process) { return CallerApplication(.snap(name: name)) }
            throw .untrusted("it runs in a root or mount namespace other than the broker's and is neither a Flatpak app (no .flatpak-info) "
                             + "nor a confined snap, so the paths it shows could name any file")
        }
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: process + "/exe") else {
            throw .unreadable("\(process)/exe cannot be read")
        }
        if let own = try? FileManager.default.destinationOfSymbolicLink(atPath: procRoot + "/self/exe"),
           webauthExecutables(engine: own).contains(executable) {
            return CallerApplication(.webauth)
        }
        let script = InterpreterScript.script(executable: executable, commandLine: Self.commandLine(process),
                                              workingDirectory: try? FileManager.default.destinationOfSymbolicLink(atPath: process + "/cwd"))
        return CallerApplication(.executable(path: executable, script: script))
    }

    /// The executables that are `webauth` to a broker running as `engine`: the engine itself,
    /// `webauth-tokens` beside it, and the front that executes them, where the front looks for
    /// them: the same folder (a build), or `PREFIX/bin/webauth` for `PREFIX/lib/webauth/`.
    static func webauthExecutables(engine: String) -> Set<String> {
        let folder = URL(fileURLWithPath: engine).deletingLastPathComponent()
        return [engine, folder.appendingPathComponent("webauth-tokens").path, folder.appendingPathComponent("webauth").path,
                folder.appendingPathComponent("../../bin/webauth").standardizedFileURL.path]
    }

    /// The process's arguments, `argv[0]` first.
    private static func commandLine(_ process: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: process + "/cmdline") else { return [] }
        return data.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
    }
}
