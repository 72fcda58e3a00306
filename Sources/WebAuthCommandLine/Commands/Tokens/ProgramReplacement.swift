import Foundation
import OpenIDConnect
import SecretGate

/// Replaces this process with another program (`execve`, searched in `PATH` as `execvp` does), as a shell's `exec` does: the program
/// keeps the process ID, so the signals sent to it and its exit status are the program's.
///
/// The program starts as this process was started: the signals ignored then are ignored (a
/// shell's background job ignores SIGINT), every other signal has its default action, and none
/// is blocked. Without that, the mask of the Swift thread that calls `execvp`, which blocks
/// signals, would outlive the exec.
package struct ProgramReplacement {
    /// The signals this process was started with ignored.
    private let ignored: Set<Int32>

    /// Notes which signals are ignored now: make it first, before anything changes a disposition.
    package init() {
        ignored = Set(Self.signals.filter { number in
            var action = sigaction()
            sigaction(number, nil, &action)
            return action.__sigaction_handler.sa_handler.map { unsafeBitCast($0, to: Int.self) } == unsafeBitCast(SIG_IGN, to: Int.self)
        })
    }

    /// Runs `command` (its first element is searched in `PATH`) with `variables` added to the
    /// environment the process started with, less what ``SecretGate`` withholds, in place of this process. Returns only when that failed.
    package func replace(with command: [String], adding variables: [String: String]) -> CommandFailure {
        for number in Self.signals { signal(number, ignored.contains(number) ? SIG_IGN : SIG_DFL) }
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        // The environment goes to execve as a copy: this process's own is left as it is (no setenv).
        // The gate keeps our secrets (a PIN, a client secret) from the program; `variables` are what it was asked to get.
        let environment = SecretGate().environment(for: "the program of webauth exec", from: CommandEnvironment.original, adding: variables)
        let arguments = command.map { strdup($0) } + [nil]
        let entries = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (arguments + entries).forEach { free($0) } }
        CommandEnvironment.removeRuntimeDirectory()  // no exit handler runs after execve
        let error = Self.candidates(for: command[0], path: environment["PATH"]).reduce(ENOENT) { found, candidate in
            execve(candidate, arguments, entries)
            // As execvp: a program found but not runnable is the answer unless a later one runs.
            return errno == ENOENT || errno == ENOTDIR ? found : errno
        }
        let reason = String(cString: strerror(error))
        return error == ENOENT ? CommandFailure(.commandNotFound, "cannot run \(command[0]): \(reason)")
                               : CommandFailure(.cannotRun, "cannot run \(command[0]): \(reason)")
    }

    /// Where `name` may be, in order: itself when it has a slash, else each folder of `path`
    /// (as execvp, `/bin:/usr/bin` when unset; an empty entry is the current folder).
    private static func candidates(for name: String, path: String?) -> [String] {
        guard !name.contains("/") else { return [name] }
        return (path ?? "/bin:/usr/bin").split(separator: ":", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? name : "\($0)/\(name)" }
    }

    /// The signals whose disposition can be set: the standard ones (below 32) but SIGKILL and SIGSTOP.
    private static let signals = (Int32(1)..<32).filter { $0 != SIGKILL && $0 != SIGSTOP }
}
