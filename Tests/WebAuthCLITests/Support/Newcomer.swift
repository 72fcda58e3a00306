import DevProvider
import Foundation
import Testing
import TestSupport

/// A newcomer's machine for ``NewcomerTests``: a scratch `HOME` (and `TMPDIR` beside it), no
/// `XDG_*` variables, no display, no Secret Service; `webauth` runs there as a person would.
struct Newcomer {
    /// Holds `home`, `tmp` and the runs' output files.
    let root = TemporaryFiles.folder("webauth-newcomer")
    var home: URL { root.appendingPathComponent("home") }
    var temporary: URL { root.appendingPathComponent("tmp") }
    /// The folder a pasted snippet runs in (beside `HOME`, so that what it writes is not taken for state).
    var work: URL { root.appendingPathComponent("work") }
    /// The most lines README.md may have: it is the front door, and the manual is in docs/ and the DocC catalogs.
    static let readmeLineLimit = 300

    init() {
        for folder in [home, temporary, work] {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
    }

    /// The environment of a run: this process's, less the display, proxies, `XDG_*`, `HOME` and `TMPDIR`.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter {
            !WebAuthBinary.machineVariables.contains($0.key) && !$0.key.hasPrefix("XDG_") && !["HOME", "TMPDIR"].contains($0.key)
        }
        environment["HOME"] = home.path
        environment["TMPDIR"] = temporary.path
        // No Secret Service and no session bus at all, as over SSH: no DBUS_SESSION_BUS_ADDRESS (and no DISPLAY to autolaunch one).
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        environment["ALICE_PASSWORD"] = OpenIDProvider.User.alice.password
        return environment
    }

    /// Runs `webauth arguments` in the newcomer's `HOME`.
    func callAsFunction(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> WebAuthBinary.Run {
        let id = UUID().uuidString
        let (out, err) = (root.appendingPathComponent("\(id).out"), root.appendingPathComponent("\(id).err"))
        let child = try ChildProcess(WebAuthBinary.binary.path, arguments, environment: environment.merging(extra) { $1 },
                                     stdout: .file(out.path), stderr: .file(err.path))
        let status = await child.exitStatus()
        return WebAuthBinary.Run(status: status, stdout: try String(contentsOf: out, encoding: .utf8), stderr: try String(contentsOf: err, encoding: .utf8))
    }

    /// Runs `script` as a newcomer pastes it into a terminal: bash (`-e -o pipefail`) in ``work``,
    /// with the built `webauth` first on `PATH` and no `ALICE_PASSWORD` of the tests'; `onStderr`
    /// sees stderr as it grows (to act as the person would, such as approve a device code).
    func paste(_ script: String, onStderr: (String) async throws -> Void = { _ in }) async throws -> WebAuthBinary.Run {
        let out = root.appendingPathComponent("\(UUID().uuidString).out")
        var environment = environment
        environment["ALICE_PASSWORD"] = nil
        environment["PATH"] = WebAuthBinary.binary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let child = try ChildProcess("/bin/bash", ["-e", "-o", "pipefail", "-c", "cd '\(work.path)'\n" + script], environment: environment,
                                     stdout: .file(out.path), stderr: .pipe)
        var stderr = ""
        for await chunk in child.outputChunks() {
            stderr += chunk
            try await onStderr(stderr)
        }
        let status = await child.exitStatus()
        return WebAuthBinary.Run(status: status, stdout: try String(contentsOf: out, encoding: .utf8), stderr: stderr)
    }

    /// README's `webauth login --headless --script` against `provider`, with the password script.
    func login(_ provider: OpenIDProvider) async throws -> WebAuthBinary.Run {
        let script = root.appendingPathComponent("login-\(UUID().uuidString).yaml")
        try LoginCommandTests.passwordScript.write(to: script, atomically: true, encoding: .utf8)
        return try await self(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless", "--script", script.path])
    }

    /// The non-empty lines of `text`.
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init)
    }

    /// `run` failed with one line on stderr, `Error: ` and what failed (containing `message`), then
    /// advice true for `command`: `advice` when given, never "the message above", and no option
    /// the command does not have.
    static func expectOneLineFailure(_ run: WebAuthBinary.Run, _ command: [String], saying message: String, advice: String? = nil,
                                     sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = lines(run.stderr)
        #expect(lines.count == 1, "\(command): one line: \(run.stderr)", sourceLocation: sourceLocation)
        guard let line = lines.last else { return }
        #expect(line.hasPrefix("Error: ") && line.contains(message), "\(command): \(line)", sourceLocation: sourceLocation)
        if let advice { #expect(line.hasSuffix(". " + advice), "\(command): \(line)", sourceLocation: sourceLocation) }
        #expect(!line.contains("message above"), "\(command): nothing was printed above: \(line)", sourceLocation: sourceLocation)
    }

    /// What the runs left in `TMPDIR`.
    func scratchTemporaryFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: temporary.path)
    }

    /// Everything under `HOME`, as paths relative to it (folders end with `/`).
    func homeContents() -> Set<String> {
        var paths: Set<String> = []
        guard let walk = FileManager.default.enumerator(at: home, includingPropertiesForKeys: [.isDirectoryKey]) else { return paths }
        let prefix = home.resolvingSymlinksInPath().path + "/"
        for case let url as URL in walk {
            let isFolder = (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) ?? false
            paths.insert(String(url.resolvingSymlinksInPath().path.dropFirst(prefix.count)) + (isFolder ? "/" : ""))
        }
        return paths
    }

    /// `HOME` holds only README's state folder, `~/.local/state/webauthsession/`, with at most the
    /// profile's sign-in (its lock, `default.lock`, is there only while a command holds it);
    /// `TMPDIR` holds nothing.
    func expectOnlyDocumentedState(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let documented: Set<String> = [".local/", ".local/state/", ".local/state/webauthsession/",
                                       ".local/state/webauthsession/default.json"]
        let undocumented = homeContents().subtracting(documented)
        #expect(undocumented.isEmpty, "left in HOME: \(undocumented.sorted())", sourceLocation: sourceLocation)
        let temporaryFiles = try scratchTemporaryFiles()
        #expect(temporaryFiles.isEmpty, "left in TMPDIR: \(temporaryFiles)", sourceLocation: sourceLocation)
    }
}
