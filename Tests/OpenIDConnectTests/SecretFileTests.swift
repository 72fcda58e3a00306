import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// ``SecretFile``: the permissions of files that hold secrets, checked as ssh checks a key's.
@Suite("Secret files: others-writable refused, others-readable warned, read-only mounts silent")
struct SecretFileTests {
    let folder: URL

    init() throws {
        folder = TemporaryFiles.folder("secret-file")
    }

    /// A new file holding `text` with `mode` (a new path each time: warnings come once per file).
    func file(mode: mode_t, _ text: String = "s3cret\n") throws -> String {
        let path = folder.appendingPathComponent(UUID().uuidString).path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chmod(path, mode) == 0)
        return path
    }

    @Test("0600 and 0400: read, no warning")
    func ownerOnly() throws {
        for mode: mode_t in [0o600, 0o400] {
            let contents = try SecretFile.read(try file(mode: mode))
            #expect(contents.text == "s3cret\n" && contents.warning == nil)
        }
    }

    @Test("group- or other-readable: read, with one warning naming the file and the chmod that fixes it, once per file")
    func readableByOthers() throws {
        for mode: mode_t in [0o640, 0o604, 0o644, 0o444] {
            let path = try file(mode: mode)
            let contents = try SecretFile.read(path)
            #expect(contents.text == "s3cret\n")
            #expect(contents.warning?.path == path && contents.warning?.mode == UInt32(mode))
            #expect("\(contents.warning!)".hasSuffix("chmod 600 \(path)") && "\(contents.warning!)".contains(String(format: "%04o", mode)))
            #expect(try SecretFile.read(path).warning == nil && SecretFile.check(path) == nil, "the warning comes once")
        }
    }

    @Test("group- or other-writable: refused with a typed error naming the file, read or checked")
    func writableByOthers() throws {
        for mode: mode_t in [0o666, 0o620, 0o602, 0o660] {
            let path = try file(mode: mode)
            #expect(throws: SecretFileError.writableByOthers(path: path, mode: UInt32(mode))) { try SecretFile.read(path) }
            #expect(throws: SecretFileError.writableByOthers(path: path, mode: UInt32(mode))) { try SecretFile.check(path) }
            #expect("\(SecretFileError.writableByOthers(path: path, mode: UInt32(mode)))".contains("chmod 600 \(path)"))
        }
    }

    @Test("a file on a read-only mount (Kubernetes, Docker secrets: 0644, 0444) is read silently (the statvfs check given; SecretFileCommandTests mounts one for real)")
    func readOnlyMount() throws {
        for mode: mode_t in [0o644, 0o444, 0o666] {
            let path = try file(mode: mode)
            var asked: [String] = []
            let contents = try SecretFile.read(path, isOnReadOnlyMount: { asked.append($0); return true })
            #expect(contents.text == "s3cret\n" && contents.warning == nil && asked == [path])
        }
    }

    @Test("a missing file is unreadable, naming it")
    func missing() {
        let path = folder.appendingPathComponent("nothing").path
        #expect(throws: SecretFileError.self) { try SecretFile.read(path) }
        #expect((try? SecretFile.check(path)) == nil)
    }
}
