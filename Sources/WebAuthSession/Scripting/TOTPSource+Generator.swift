import Foundation
import OpenIDConnect

/// Reading a ``TOTPSource``'s secret when its code is typed.
extension TOTPSource {
    /// The generator, with the secret read now.
    func generator(environment: [String: String]) throws(LoginValueError) -> TimeBasedOneTimePassword {
        let text: String
        switch secret {
        case .environment(let name):
            guard let value = environment[name] else { throw .unavailable("the environment variable \(name) is not set") }
            text = value
        case .file(let path):
            do { text = try SecretFile.readLoggingWarning(path) } catch { throw .unavailable("\(error)") }
        }
        do { return try TimeBasedOneTimePassword(base32Secret: text.trimmingCharacters(in: .whitespacesAndNewlines),
                                                 algorithm: algorithm, digits: digits, period: period) } catch {
            throw .unavailable("\(self): \(error)")
        }
    }
}
