import Foundation
import WebAuthSupport

/// The X authority file of a private Xvfb: one random 16-byte MIT-MAGIC-COOKIE-1, in a folder of
/// its own (mode 0700, file mode 0600), so that only this user's processes that are given the file
/// (GTK, WebKit's processes, through `XAUTHORITY`) can connect to the display.
///
/// Written in the Xauthority binary format directly rather than with `xauth`: the format is five
/// length-prefixed fields, and writing them spares a process launch on every engine start. The
/// entry's family is "wild" with no display number, so it holds for whatever display number
/// Xvfb picks (`-displayfd`), which is not known before the server starts.
package struct XAuthorityFile: Sendable {
    /// The file, for Xvfb's `-auth` and for `XAUTHORITY`.
    package let path: String
    /// The private folder that holds it.
    package let directory: String

    /// How the folder's name begins (`mkdtemp` adds six characters).
    private static let folderPrefix = "webauthsession-x11-"

    /// Makes the folder (in `XDG_RUNTIME_DIR`, else the temporary folder) and writes a fresh cookie into it.
    /// - Throws: ``NoDisplayReason/authorityFolderUnavailable(directory:code:)`` or
    ///   ``NoDisplayReason/authorityFileUnwritable(path:reason:)``.
    package init() throws(NoDisplayReason) {
        let base = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 }
            ?? NSTemporaryDirectory()
        var template = Array((base + "/" + Self.folderPrefix + "XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else {
            throw .authorityFolderUnavailable(directory: base, code: errno)
        }
        directory = String(cString: created)
        path = directory + "/Xauthority"
        var cookie = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()  // getrandom(2): cryptographically secure
        for index in cookie.indices { cookie[index] = generator.next() }
        do throws(PrivateFileError) {
            try PrivateFile.write(Data(Self.entry(name: "MIT-MAGIC-COOKIE-1", data: cookie)), to: URL(fileURLWithPath: path))
        } catch {
            remove()
            throw .authorityFileUnwritable(path: error.path, reason: error.reason)
        }
    }

    /// The file in `directory`, if that is a folder ``init()`` could have made: named as it names
    /// them, this user's, mode 0700, holding a regular file of this user's (what a hand-over from
    /// `webauth` names; anything else is not taken, nor removed).
    init?(madeAt directory: String) {
        var folder = stat()
        var file = stat()
        let path = directory + "/Xauthority"
        guard URL(fileURLWithPath: directory).lastPathComponent.hasPrefix(Self.folderPrefix),
              lstat(directory, &folder) == 0, (folder.st_mode & S_IFMT) == S_IFDIR, folder.st_uid == geteuid(),
              folder.st_mode & 0o777 == 0o700,
              lstat(path, &file) == 0, (file.st_mode & S_IFMT) == S_IFREG, file.st_uid == geteuid()
        else { return nil }
        self.directory = directory
        self.path = path
    }

    /// Deletes the file and its folder.
    package func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// One Xauthority entry: family, address, display number, name and data, each field but the
    /// family a big-endian 16-bit length followed by the bytes.
    private static func entry(name: String, data: [UInt8]) -> [UInt8] {
        let familyWild: UInt16 = 0xFFFF
        func field(_ bytes: [UInt8]) -> [UInt8] { [UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes }
        return [UInt8(familyWild >> 8), UInt8(familyWild & 0xFF)] + field([]) + field([]) + field(Array(name.utf8)) + field(data)
    }
}
