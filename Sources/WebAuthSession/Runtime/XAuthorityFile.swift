import Foundation
import OpenIDConnect
import WebAuthSupport

/// The X authority file of the engine's private Xvfb: one random 16-byte MIT-MAGIC-COOKIE-1,
/// in a folder of its own (mode 0700, file mode 0600), so that only this user's processes that
/// are given the file (GTK, WebKit's processes, through `XAUTHORITY`) can connect to the display.
///
/// Written in the Xauthority binary format directly rather than with `xauth`: the format is five
/// length-prefixed fields, and writing them spares a process launch on every engine start. The
/// entry's family is "wild" with no display number, so it holds for whatever display number
/// Xvfb picks (`-displayfd`), which is not known before the server starts.
struct XAuthorityFile: Sendable {
    /// The file, for Xvfb's `-auth` and for `XAUTHORITY`.
    let path: String
    /// The private folder that holds it.
    let directory: String

    /// Makes the folder and writes a fresh cookie into it.
    /// - Throws: ``WebAuthenticationError/noDisplay(_:)-swift.enum.case`` if the folder or file cannot be written.
    init() throws(WebAuthenticationError) {
        let base = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 }
            ?? NSTemporaryDirectory()
        var template = Array((base + "/webauthsession-x11-XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else {
            throw .noDisplay(.authorityFolderUnavailable(directory: base, code: errno))
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
            throw .noDisplay(.authorityFileUnwritable(path: error.path, reason: error.reason))
        }
    }

    /// Deletes the file and its folder.
    func remove() {
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
