import Foundation
import Synchronization
import UnixSignals
import WebAuthNetwork
import WebAuthKeyring
import WebAuthExitStatus

/// Ctrl-C (SIGINT) or SIGTERM arriving while a command runs: the command's work is cancelled,
/// and the process exits with its own status (130 or 143) through the engine's exit teardown.
package enum Interruption {
    /// SIGINT, as Ctrl-C sends.
    case interrupt
    /// SIGTERM, as `kill` and service managers send.
    case terminate

    /// The exit status, the shell's 128 + signal number.
    package var status: ExitStatus {
        switch self {
        case .interrupt: .interrupted
        case .terminate: .terminated
        }
    }

    /// Runs `body` until it ends or SIGINT or SIGTERM arrives. On a signal, cancels `body` and
    /// waits for it to end (a cancelled sign-in closes its window and frees its view); a second
    /// signal meanwhile exits at once. Returns the signal, or nil when `body` finished its work
    /// (by itself, or despite the cancellation).
    package static func cancelling(_ body: @escaping @Sendable () async throws -> Void) async throws -> Interruption? {
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm)
        let work = Task { try await body() }
        let received = Mutex<Interruption?>(nil)
        let watcher = Task {
            for await signal in signals {
                let first = received.withLock { received in
                    defer { received = received ?? Interruption(signal) }
                    return received == nil
                }
                guard first else { _exit(Interruption(signal).status.rawValue) }
                work.cancel()
            }
        }
        let outcome = await work.result
        // After a signal the watcher stays, so that a second one during shutdown exits at once.
        if case .failure(let error) = outcome {
            if let interruption = received.withLock({ $0 }) { return interruption }
            watcher.cancel()
            throw error
        }
        watcher.cancel()
        return nil
    }

    /// Says in one line on stderr that `outcome` (what was left undone), and exits with
    /// ``status``. The cancelled work has closed its sessions; the engine's exit handler (when
    /// the engine ran) then joins its loop thread, stops its display and removes its scratch
    /// directories, and WebKit's processes end with this one.
    package func exit(saying outcome: String) -> Never {
        FileHandle.standardError.write(Data("Interrupted: \(outcome).\n".utf8))
        Foundation.exit(status.rawValue)
    }

    private init(_ signal: UnixSignal) {
        self = signal == .sigterm ? .terminate : .interrupt
    }
}
