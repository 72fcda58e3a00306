import Foundation

/// A loopback TCP port held for a test: a socket bound to port 0 (the system picks a port no
/// one else has) with `SO_REUSEADDR`, never listening. While it lives, nothing that asks for a
/// free port gets this one, and connections to it are refused; a listener that binds it on
/// purpose with `SO_REUSEADDR` (libsoup's does) still can, since this socket does not listen.
/// No free-port race: the port is never let go between choosing it and using it.
public final class PortReservation: Sendable {
    /// The port held.
    public let port: Int
    private let descriptor: Int32

    /// Holds a port on `host` (`127.0.0.1` or `::1`): `port`, or one the system picks (0).
    /// Holding the port of a server just stopped keeps it unreachable: otherwise another test's
    /// listener may take the port and answer, or never answer, in its place.
    /// - Throws: the `POSIXError` of `socket` or `bind` (`EADDRINUSE`: another socket has `port`,
    ///   such as a connection of the stopped server's that is still closing).
    public init(host: String = "127.0.0.1", port requested: Int = 0) throws {
        let family = host.contains(":") ? AF_INET6 : AF_INET
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var storage = sockaddr_storage()
        var length: socklen_t
        if family == AF_INET6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_addr = in6addr_loopback
            address.sin6_port = in_port_t(UInt16(requested).bigEndian)
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeBytes(of: &address) { bytes in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) } }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = in_port_t(UInt16(requested).bigEndian)
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeBytes(of: &address) { bytes in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) } }
        }
        let bound = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        guard bound == 0 else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EIO
            close(descriptor)
            throw POSIXError(code)
        }
        _ = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        // sin_port and sin6_port both sit at offset 2, in network byte order.
        port = Int(UInt16(bigEndian: withUnsafeBytes(of: &storage) { $0.load(fromByteOffset: 2, as: UInt16.self) }))
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
