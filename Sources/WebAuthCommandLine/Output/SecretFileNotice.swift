import Foundation
import OpenIDConnect

/// The command's reads of secret files (`--client-secret-file`, `--private-key-file`, the client
/// certificate's key): `SecretFile`'s refusal as a usage error (exit 64, one line naming the
/// file), its warning as one `Warning:` line on stderr. `SecretFile` hands out a file's
/// warning once per process, so a file read twice warns once, and the engine, which checks the
/// certificate's key again, finds nothing left to log.
package enum SecretFileNotice {
    /// The text of the secret file at `path`, without surrounding blanks; its warning on stderr.
    package static func read(_ path: String) throws(CommandFailure) -> String {
        let contents: SecretFile.Contents
        do { contents = try SecretFile.read(path) } catch { throw CommandFailure(.usage, "\(error)") }
        show(contents.warning)
        return contents.text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Checks the secret file at `path` (one that something else reads, and reports missing); its warning on stderr.
    package static func check(_ path: String) throws(CommandFailure) {
        do { show(try SecretFile.check(path)) } catch .writableByOthers(let path, let mode) {
            throw CommandFailure(.usage, "\(SecretFileError.writableByOthers(path: path, mode: mode))")
        } catch {}
    }

    /// Writes `warning`, if any, as one line on stderr.
    package static func show(_ warning: SecretFileWarning?) {
        guard let warning else { return }
        FileHandle.standardError.write(Data("Warning: \(warning)\n".utf8))
    }
}
