import DevProvider
import Foundation
import Synchronization
import Testing

/// ``LocalHTTPServer`` answers from threads of its own: a test process whose cooperative pool is
/// busy (tasks waiting on children, GTK or a display) must not leave a `webauth` child or a
/// browser waiting for the in-process provider's page.
@Suite("Local HTTP server")
struct LocalHTTPServerTests {
    @Test("a request is answered while every thread of the cooperative pool is held (in a child process)")
    func answersWithThePoolHeld() async {
        // A child of its own: holding the pool here would stall every test running beside this one.
        await #expect(processExitsWith: .success) {
            let server = try await LocalHTTPServer.start { _ in .html("answered") }
            let width = ProcessInfo.processInfo.activeProcessorCount
            let (held, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
            let answer = Mutex<String?>(nil)
            // Off the pool: once `width` tasks hold the pool's threads, ask the server, then let them go.
            let client = Thread {
                for _ in 0..<width { _ = held.wait(timeout: .now() + 60) }
                answer.withLock { $0 = LocalHTTPServerTests.rawGET(port: server.port, path: "/", timeoutSeconds: 30) }
                for _ in 0..<2 * width { release.signal() }
            }
            client.start()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<2 * width {
                    group.addTask {
                        held.signal()
                        release.wait()  // blocks a thread of the pool on purpose: that is what this test is about
                    }
                }
            }
            let response = answer.withLock { $0 } ?? "no answer within 30 s"
            guard response.hasPrefix("HTTP/1.1 200"), response.hasSuffix("answered") else {
                FileHandle.standardError.write(Data("\(response)\n".utf8))
                exit(2)
            }
        }
    }

    /// `GET path` over a plain socket, read until the server closes it or `timeoutSeconds` pass
    /// without a byte; nil if nothing came. Blocking: for a thread of its own.
    static func rawGET(port: Int, path: String, timeoutSeconds: Int) -> String? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return nil }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        guard send(descriptor, request, request.count, 0) == request.count else { return nil }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count > 0 { received += buffer[0..<count] } else if count < 0 && errno == EINTR { continue } else { break }
        }
        return received.isEmpty ? nil : String(decoding: received, as: UTF8.self)
    }
}
