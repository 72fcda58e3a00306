import Foundation

/// Whether another program listens on a port, asked of the kernel before a server starts there:
/// Hummingbird, when its bind fails, does not always end its service group, and a server that
/// never runs leaves its caller waiting.
enum PortProbe {
    /// Whether binding `host` (an IPv4 or IPv6 literal, or `localhost`) on `port` fails with
    /// `EADDRINUSE` (the same `SO_REUSEADDR` a server sets, so a port in `TIME_WAIT` is free).
    static func isInUse(host: String, port: Int) -> Bool {
        let literal = host == "localhost" ? "127.0.0.1" : host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        let isV4 = inet_pton(AF_INET, literal, &v4.sin_addr) == 1
        guard isV4 || inet_pton(AF_INET6, literal, &v6.sin6_addr) == 1 else { return false }
        let descriptor = socket(isV4 ? AF_INET : AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound: Int32
        if isV4 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port).bigEndian)
            bound = withUnsafePointer(to: &v4) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        } else {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port).bigEndian)
            bound = withUnsafePointer(to: &v6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
        }
        return bound != 0 && errno == EADDRINUSE
    }
}
