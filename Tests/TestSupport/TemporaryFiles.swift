import Foundation
import Synchronization

/// The folders and files the tests' fixtures make in the temporary directory: each is named
/// here, and all are removed when the test process exits, so that a test that fails or throws
/// halfway leaves nothing in `TMPDIR` either (what the product leaves there stays visible: its
/// runs get their own `TMPDIR`, never one of these). A killed test process leaves them.
public enum TemporaryFiles {
    /// Everything named so far, removed at exit.
    private static let named = Mutex<[URL]>([])
    /// Registers the removal at exit, once.
    private static let removalAtExit: Void = { atexit { TemporaryFiles.removeAll() } }()

    /// A new, empty folder `prefix-UUID` in the temporary directory (mode 0700), removed at exit.
    public static func folder(_ prefix: String) -> URL {
        let url = name("\(prefix)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return url
    }

    /// A path in the temporary directory that nothing has made yet, `prefix-UUID` (with
    /// `fileExtension` if given), removed at exit whatever a test makes there (a file, a folder).
    public static func path(_ prefix: String, fileExtension: String? = nil) -> URL {
        name("\(prefix)-\(UUID().uuidString)" + (fileExtension.map { ".\($0)" } ?? ""))
    }

    /// Names `component` in the temporary directory for removal at exit.
    private static func name(_ component: String) -> URL {
        _ = removalAtExit
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(component)
        named.withLock { $0.append(url) }
        return url
    }

    private static func removeAll() {
        for url in named.withLock({ $0 }) { try? FileManager.default.removeItem(at: url) }
    }
}
