import Foundation
import OpenIDConnect
import Testing
import WebAuthSession

/// Shared set-up for tests that drive the real engine.
enum TestEngine {
    /// Runs once: every engine test uses a private Xvfb, even on a desktop, so no window
    /// appears on the developer's screen and none takes focus.
    static let configured: Void = {
        try? WebAuthEngine.configure(EngineConfiguration(display: .virtual))
    }()

    /// Options for a test session: headless unless asked, a generous timeout that only
    /// bounds a broken test (no test relies on it firing, except the timeout test).
    static func options(_ presentation: WebAuthenticationOptions.Presentation = .headless,
                        timeout: Duration = .seconds(60)) -> WebAuthenticationOptions {
        _ = configured
        var options = WebAuthenticationOptions()
        options.presentation = presentation
        options.timeout = timeout
        return options
    }

    /// A session for `url` that catches `redirectURI`.
    static func session(_ url: URL, redirectURI: String, options: WebAuthenticationOptions = options()) throws -> WebAuthenticationSession {
        _ = configured
        return WebAuthenticationSession(url: url, redirectURI: try RedirectURI(redirectURI), options: options)
    }

    /// Whether `::1` can be bound here (some containers have no IPv6 loopback).
    static let hasIPv6Loopback: Bool = {
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        } == 0
    }()

    /// Threads of this process named `name` (as in /proc/self/task/*/comm, at most 15 characters).
    static func threads(named name: String) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.count { task in
            let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            return comm.trimmingCharacters(in: .newlines) == name
        }
    }

    /// Open file descriptors of this process, leaving out the /proc and /sys files that WebKit's
    /// memory-pressure monitor opens once, lazily, some time after the first session.
    static var openFileDescriptors: Int {
        let directory = "/proc/self/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.count { name in
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + name)) ?? ""
            return !target.hasPrefix("/proc/") && !target.hasPrefix("/sys/")
        }
    }
}
