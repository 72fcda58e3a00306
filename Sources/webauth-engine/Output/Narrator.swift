import Foundation
import Logging
import OpenIDConnect
import WebAuthSession
import WebAuthCommandLine

/// Progress on stderr: timed lines, the navigation log with `--verbose`, and, when stderr is a
/// terminal, a reminder every few seconds while a sign-in waits for a person. Values in URLs
/// are redacted; tokens and typed text never appear.
final class Narrator: Sendable {
    private let start = ContinuousClock.now
    private let verbose: Bool
    private let quiet: Bool

    /// - Parameters:
    ///   - verbose: also log every navigation decision and page load.
    ///   - quiet: say nothing but the navigation log (commands whose stderr is for errors).
    init(verbose: Bool, quiet: Bool = false) {
        self.verbose = verbose
        self.quiet = quiet
        LoggingSystem.bootstrap { label in
            var handler = NarratedLogHandler(stream: StreamLogHandler.standardError(label: label))
            handler.logLevel = verbose ? .debug : .warning
            return handler
        }
    }

    /// Writes `message` with the time since start.
    func say(_ message: String) {
        guard !quiet else { return }
        write(message)
    }

    /// Writes `message` even when quiet: something went wrong but the command goes on.
    func warn(_ message: String) {
        FileHandle.standardError.write(Data("Warning: \(message)\n".utf8))
    }

    private func write(_ message: String) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        FileHandle.standardError.write(Data(String(format: "[%6d ms] %@\n", milliseconds, message).utf8))
    }

    /// Follows `session`'s events until it ends: page loads always, every decision with `--verbose`.
    func follow(_ session: WebAuthenticationSession) {
        Task {
            for await event in session.events {
                switch event {
                case .loadCommitted(let url, let host, let tls) where verbose:
                    write("page from \(host) (TLS: \(tls)): \(url)")
                case .loadCommitted(let url, let host, _) where !quiet:
                    write("page \(URLComponents(string: String(url.prefix { $0 != "?" && $0 != "#" }))?.path ?? "") from \(host)")
                case .navigation(let decision) where verbose || (!quiet && decision.verdict != .allowed):
                    write("navigation \(decision)")
                case .loadFailed(let url, let reason, let ignored) where verbose:
                    write("load failed (\(reason)\(ignored ? "; ignored, the engine's own" : "")): \(url)")
                case .certificateTrusted(let host) where verbose || !quiet:
                    write("the CA file vouched for \(host)'s certificate: loading the page again")
                case .passkey(let operation, let relyingParty, let outcome) where !quiet:
                    write("passkey: \(operation) for \(relyingParty): \(outcome)")
                default: break
                }
            }
        }
    }

    /// While `body` runs, reminds a person at a terminal every 10 s that a sign-in is waiting.
    func waiting<T>(for what: String, _ body: () async throws -> T) async rethrows -> T {
        guard isatty(STDERR_FILENO) == 1 else { return try await body() }
        let reminder = Task {
            var waited = 0
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(10))
                waited += 10
                write("still waiting for \(what) (\(waited) s)…")
            }
        }
        defer { reminder.cancel() }
        return try await body()
    }

    /// Runs `body`, then says `message` with its duration.
    func timed<T>(_ message: String, _ body: () async throws -> T) async rethrows -> T {
        let began = ContinuousClock.now
        let result = try await body()
        let took = ContinuousClock.now - began
        say("\(message) (\(took.components.seconds * 1000 + took.components.attoseconds / 1_000_000_000_000_000) ms)")
        return result
    }
}
