import Foundation

/// How ``SystemBrowserUserAgent`` opens the person's browser on the authorization URL.
public enum SystemBrowser: Sendable {
    /// The desktop's default browser: `xdg-open`, else `gio open`.
    case desktopDefault
    /// A command; the URL is added as its last argument (`["firefox", "--new-window"]`).
    case command([String])
    /// Your own opener (a test's scripted "browser", a kiosk's second screen...).
    case custom(@Sendable (URL) async throws -> Void)

    /// Opens `url`.
    /// - Throws: ``AuthorizationUserAgentError/browserUnavailable(_:)``.
    public func open(_ url: URL) async throws(AuthorizationUserAgentError) {
        switch self {
        case .desktopDefault:
            var failures: [BrowserUnavailableReason] = []
            for opener in [["xdg-open"], ["gio", "open"]] {
                guard let failure = await Self.run(opener + [url.absoluteString]) else { return }
                failures.append(failure)
            }
            throw .browserUnavailable(.noOpenerWorked(failures))
        case .command(let command):
            guard !command.isEmpty else { throw .browserUnavailable(.emptyCommand) }
            if let failure = await Self.run(command + [url.absoluteString]) { throw .browserUnavailable(failure) }
        case .custom(let open):
            // An opener that says why in our terms keeps its reason, so "could not be opened" is said once.
            do { try await open(url) } catch AuthorizationUserAgentError.browserUnavailable(let reason) { throw .browserUnavailable(reason) } catch {
                throw .browserUnavailable(.customOpenerFailed(message: String(describing: error)))
            }
        }
    }

    /// Runs `arguments` (the program found on `PATH`) until it exits, which must be with status 0.
    /// A browser that stays open keeps this waiting; the sign-in does not wait for it.
    /// - Returns: why it did not open the browser; `nil` when it exited with status 0.
    private static func run(_ arguments: [String]) async -> BrowserUnavailableReason? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let exited = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { exited.continuation.yield($0.terminationStatus) }
        do { try process.run() } catch { return .notRun(program: arguments[0], message: error.localizedDescription) }
        var statuses = exited.stream.makeAsyncIterator()
        let status = await statuses.next() ?? -1
        guard status == 0 else { return .exited(program: arguments[0], status: status) }
        return nil
    }
}
