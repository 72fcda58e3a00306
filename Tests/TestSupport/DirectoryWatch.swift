import Foundation

/// Waits for a file to be created in a directory, with inotify: set up before the process that
/// makes the file starts (a compositor's socket), so its creation cannot be missed. Closed when released.
public final class DirectoryWatch: Sendable {
    private let descriptor: Int32

    /// Watches `directory` for new files.
    /// - Throws: what inotify said, when the watch cannot be made.
    public init(_ directory: URL) throws(POSIXError) {
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0, inotify_add_watch(descriptor, directory.path, UInt32(IN_CREATE)) >= 0 else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EIO
            if descriptor >= 0 { close(descriptor) }
            throw POSIXError(code)
        }
    }

    /// Whether `name` is created before process `pid` exits or 30 s pass with nothing created,
    /// read on a thread of its own: a process slow to start must not hold a thread of the cooperative pool.
    public func awaitCreation(of name: String, whileRunning pid: pid_t) async -> Bool {
        let descriptor = descriptor
        return await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: withExtendedLifetime(self) { Self.read(descriptor, until: name, whileRunning: pid) }) }.start()
        }
    }

    /// Reads inotify events until one says `name` was created.
    private static func read(_ watch: Int32, until name: String, whileRunning pid: pid_t) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var descriptor = pollfd(fd: watch, events: Int16(POLLIN), revents: 0)
        while poll(&descriptor, 1, 30_000) > 0 {
            let count = Glibc.read(watch, &buffer, buffer.count)
            guard count > 0 else { return false }
            var offset = 0
            while offset < count {
                let (nameLength, created) = buffer.withUnsafeBytes { bytes in
                    let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let start = offset + MemoryLayout<inotify_event>.size
                    let raw = bytes[start..<start + Int(event.len)].prefix { $0 != 0 }
                    return (Int(event.len), String(decoding: raw, as: UTF8.self))
                }
                if created == name { return true }
                offset += MemoryLayout<inotify_event>.size + nameLength
            }
            if kill(pid, 0) != 0 { return false }
        }
        return false
    }

    deinit {
        close(descriptor)
    }
}
