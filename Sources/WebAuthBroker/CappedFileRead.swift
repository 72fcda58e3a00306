import Foundation

/// The bytes of a regular file open as a descriptor, read from its start and at most a cap: what
/// the broker reads on a caller's word (a sandbox's `.flatpak-info`, a script sent as a
/// descriptor) is checked to be a plain file of a sane size first, so a FIFO, a device or a huge
/// file neither hangs nor floods the broker. `pread` leaves the descriptor's offset alone (a
/// descriptor passed over the bus shares it with the caller).
enum CappedFileRead {
    /// Why the bytes were not read.
    enum Problem: Error {
        /// Not a regular file.
        case notRegularFile
        /// Larger than the cap.
        case tooLarge
        /// The read failed, with `strerror`'s words.
        case unreadable(String)
    }

    /// At most `maximumBytes` of the regular file open as `descriptor`.
    static func bytes(of descriptor: Int32, atMost maximumBytes: Int) throws(Problem) -> [UInt8] {
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { throw .notRegularFile }
        guard info.st_size <= maximumBytes else { throw .tooLarge }
        // One byte past the cap: the file may grow between the fstat and the read.
        var bytes = [UInt8](repeating: 0, count: maximumBytes + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + count, $0.count - count, off_t(count)) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
            if got == 0 { break }
            count += got
        }
        guard count <= maximumBytes else { throw .tooLarge }
        return Array(bytes[..<count])
    }
}
