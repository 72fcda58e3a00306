import Foundation

/// How ``SystemBrowserSession`` opens the person's browser on the authorization URL.
public enum SystemBrowser: Sendable {
    /// The desktop's default browser: `xdg-open`, else `gio open`.
    case desktopDefault
    /// A command; the URL is added as its last argument (`["firefox", "--new-window"]`).
    case command([String])
    /// Your own opener (a test's scripted "browser", a kiosk's second screen...).
    case custom(@Sendable (URL) async throws -> Void)

    /// Opens `url`.
    /// - Throws: ``WebAuthenticationError/browserUnavailable(_:)``.
    public func open(_ url: URL) async throws(WebAuthenticationError) {
        switch self {
        case .desktopDefault:
            var failures: [String] = []
            for opener in [["xdg-open"], ["gio", "open"]] {
                do throws(WebAuthenticationError) { return try await Self.run(opener + [url.absoluteString]) } catch {
                    failures.append(Self.reason(error))
                }
            }
            throw .browserUnavailable(failures.joined(separator: "; "))
        case .command(let command):
            guard !command.isEmpty else { throw .browserUnavailable("the browser command is empty") }
            try await Self.run(command + [url.absoluteString])
        case .custom(let open):
            do { try await open(url) } catch let error as WebAuthenticationError { throw .browserUnavailable(Self.reason(error)) } catch {
                throw .browserUnavailable(String(describing: error))
            }
        }
    }

    /// Why `error` did not open the browser, without the "could not be opened" that
    /// ``WebAuthenticationError/browserUnavailable(_:)``'s description adds, so that it is said once.
    private static func reason(_ error: WebAuthenticationError) -> String {
        if case .browserUnavailable(let reason) = error { return reason }
        return "\(error)"
    }

    /// Runs `arguments` (the program found on `PATH`) until it exits, which must be with status 0.
    /// A browser that stays open keeps this waiting; the sign-in does not wait for it.
    private static func run(_ arguments: [String]) async throws(WebAuthenticationError) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let exited = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { exited.continuation.yield($0.terminationStatus) }
        do { try process.run() } catch { throw .browserUnavailable("\(arguments[0]): \(error.localizedDescription)") }
        var statuses = exited.stream.makeAsyncIterator()
        let status = await statuses.next() ?? -1
        guard status == 0 else { throw .browserUnavailable("\(arguments[0]) exited with status \(status)") }
    }
}
