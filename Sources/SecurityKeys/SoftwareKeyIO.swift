import Foundation
import OpenIDConnect
internal import CFido2
import WebAuthSupport

/// libfido2's custom I/O (`fido_dev_io_t`) onto ``SoftwareSecurityKey``s: the only code that
/// hands libfido2 callbacks. A key is opened by the path `software:N` it was registered under;
/// the handle libfido2 keeps is N itself, never a pointer.
enum SoftwareKeyIO {
    private static let keys = LockedState<(next: Int, byNumber: [Int: SoftwareSecurityKey])>((1, [:]))

    /// The path libfido2 opens `key` by, registered until ``forget(_:)``.
    static func register(_ key: SoftwareSecurityKey) -> String {
        keys.withLock { keys in
            let number = keys.next
            keys.next += 1
            keys.byNumber[number] = key
            return "software:\(number)"
        }
    }

    /// Forgets the key registered under `path`.
    static func forget(_ path: String) {
        guard let number = Int(path.dropFirst("software:".count)) else { return }
        keys.withLock { _ = $0.byNumber.removeValue(forKey: number) }
    }

    private static func key(_ handle: UnsafeMutableRawPointer?) -> SoftwareSecurityKey? {
        let number = Int(bitPattern: handle)
        return keys.withLock { $0.byNumber[number] }
    }

    /// The functions, for `fido_dev_set_io_functions`.
    static var functions: fido_dev_io_t {
        fido_dev_io_t(
            open: { path in
                guard let path, case let text = String(cString: path), text.hasPrefix("software:"),
                      let number = Int(text.dropFirst("software:".count)), SoftwareKeyIO.keys.withLock({ $0.byNumber[number] != nil }) else { return nil }
                return UnsafeMutableRawPointer(bitPattern: number)
            },
            close: { _ in },
            read: { handle, buffer, length, milliseconds in
                guard let buffer, let report = SoftwareKeyIO.key(handle)?.read(milliseconds: Int(milliseconds)) else { return -1 }
                let count = min(length, report.count)
                report.copyBytes(to: buffer, count: count)
                return Int32(count)
            },
            write: { handle, buffer, length in
                // libfido2 writes a report ID (0) before each 64-byte report.
                guard let buffer, length > 1, let key = SoftwareKeyIO.key(handle), key.write(Data(bytes: buffer + 1, count: length - 1)) else { return -1 }
                return Int32(length)
            })
    }
}
