import Logging
import OpenIDConnect

/// The engine's reads of secret files (a login script's `file:` value, a TOTP seed, a client
/// certificate's key): `SecretFile`'s checks, with its warning logged (swift-log, label
/// `WebAuthSession`, level warning), since the engine has no caller to hand it to at that point.
extension SecretFile {
    /// The text of the secret file at `path`; its warning, if any, logged.
    /// - Throws: `SecretFileError`.
    package static func readLoggingWarning(_ path: String) throws(SecretFileError) -> String {
        let contents = try read(path)
        if let warning = contents.warning { logger.warning("\(warning)") }
        return contents.text
    }

    /// Checks the secret file at `path`; its warning, if any, logged.
    /// - Throws: `SecretFileError`.
    package static func checkLoggingWarning(_ path: String) throws(SecretFileError) {
        if let warning = try check(path) { logger.warning("\(warning)") }
    }

    private static var logger: Logger { Logger(label: "WebAuthSession") }
}
