import Foundation
import OpenIDConnect
import SignInFiles
import WebAuthSession
import WebAuthSupport

/// The answers the person gave (or `webauth broker --grant` recorded), per app and account:
/// `$XDG_CONFIG_HOME/webauth/broker-consent.json` (else `~/.config/…`), mode 0600 in a folder
/// made 0700, replaced atomically. The broker reads it at every check, so a grant made from a
/// terminal counts at once; writers (the broker, `--grant`, `--forget`) take turns through an
/// advisory lock on `broker-consent.lock` beside it.
public struct ConsentStore: Sendable {
    /// The file.
    public let fileURL: URL

    /// The store of the user whose folders `environment` names.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        fileURL = URL(fileURLWithPath: ConfigurationFile.defaultPath(environment)).deletingLastPathComponent()
            .appendingPathComponent("broker-consent.json")
    }

    /// Every answer, sorted by app, then account.
    /// - Throws: ``ConsentStoreError`` for a file that cannot be read or is not ours.
    public func answers() throws(ConsentStoreError) -> [ConsentAnswer] {
        guard let data = FileManager.default.contents(atPath: fileURL.path) else {
            if FileManager.default.fileExists(atPath: fileURL.path) { throw ConsentStoreError(path: fileURL.path, reason: "cannot be read") }
            return []
        }
        guard let file = try? JSONDecoder().decode(File.self, from: data), file.format == File.format else {
            throw ConsentStoreError(path: fileURL.path, reason: "is not a broker consent file (format \(File.format))")
        }
        return file.answers.sorted { ($0.app, $0.account) < ($1.app, $1.account) }
    }

    /// What identifies the file's present content without reading it: its inode (a write replaces
    /// the file), size and modification time; empty when there is no file.
    public func version() -> [Int] {
        var info = stat()
        guard stat(fileURL.path, &info) == 0 else { return [] }
        return [Int(info.st_ino), Int(info.st_size), info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
    }

    /// The answer for `app` and `account`, if one was given.
    public func answer(app: String, account: String) throws(ConsentStoreError) -> Bool? {
        try answers().first { $0.app == app && $0.account == account }?.allowed
    }

    /// Records `answer`, replacing an earlier one for its app and account.
    public func record(_ answer: ConsentAnswer) throws(ConsentStoreError) {
        try update { answers in
            answers.removeAll { $0.app == answer.app && $0.account == answer.account }
            answers.append(answer)
        }
    }

    /// Forgets every answer about `app`.
    /// - Returns: how many there were.
    @discardableResult
    public func forget(app: String) throws(ConsentStoreError) -> Int {
        try forget { $0.app == app }
    }

    /// Forgets every answer about `account`, whichever app it was for: the account was signed
    /// out, or is made anew, and what was allowed of its earlier sign-in is not allowed of the next.
    /// - Returns: how many there were.
    @discardableResult
    public func forget(account: String) throws(ConsentStoreError) -> Int {
        guard try answers().contains(where: { $0.account == account }) else { return 0 }
        return try forget { $0.account == account }
    }

    /// Forgets the answers `matching` says.
    private func forget(where matching: (ConsentAnswer) -> Bool) throws(ConsentStoreError) -> Int {
        var removed = 0
        try update { answers in
            removed = answers.count
            answers.removeAll(where: matching)
            removed -= answers.count
        }
        return removed
    }

    /// Reads, changes and writes the answers, holding the lock.
    private func update(_ change: (inout [ConsentAnswer]) -> Void) throws(ConsentStoreError) {
        let folder = fileURL.deletingLastPathComponent()
        do { try PrivateFile.makeDirectory(folder) } catch { throw ConsentStoreError(path: error.path, reason: error.reason) }
        let lockPath = folder.appendingPathComponent("broker-consent.lock").path
        let lock = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw ConsentStoreError(path: lockPath, reason: String(cString: strerror(errno))) }
        defer { close(lock) }
        // Held for one read and one small write: a blocking wait is as short as the other writer's.
        guard flock(lock, LOCK_EX) == 0 else { throw ConsentStoreError(path: lockPath, reason: String(cString: strerror(errno))) }
        var answers = try self.answers()
        change(&answers)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do { data = try encoder.encode(File(answers: answers)) } catch { throw ConsentStoreError(path: fileURL.path, reason: "\(error)") }
        do { try PrivateFile.write(data, to: fileURL) } catch { throw ConsentStoreError(path: error.path, reason: error.reason) }
    }

    /// The file's content: a format marker, so that someone else's file is never overwritten.
    private struct File: Codable {
        static let format = "webauthsession.broker-consent"
        var format = File.format
        var answers: [ConsentAnswer]
    }
}

/// The consent file cannot be read or written.
public struct ConsentStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file or folder.
    public let path: String
    /// What is wrong.
    public let reason: String

    public var description: String { "the broker's consent file \(path): \(reason)" }
}
