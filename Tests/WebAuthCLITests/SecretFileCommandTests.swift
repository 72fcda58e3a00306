import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// Secret files as the command reads them (``SecretFile``): a client secret or key file others
/// can write stops the command with one line naming it (exit 64); one they can read is used,
/// with one warning and the chmod that fixes it; one on a read-only mount (a Kubernetes or
/// Docker secret) is used silently. And a sign-in saved to a file for want of a keyring says where.
@Suite("secret files and where a sign-in went (the built binary)", .startsWebKit(minutes: 3))
struct SecretFileCommandTests {
    var webauth = WebAuthBinary()

    /// A file in the sandbox holding `text` with `mode`.
    func file(_ name: String, mode: mode_t, _ text: String = "client-secret-4f1d\n") throws -> String {
        let path = try webauth.file(name, text)
        #expect(chmod(path, mode) == 0)
        return path
    }

    /// `webauth login` with the client secret file `path`, against a port nothing listens on:
    /// the secret is read, then discovery fails (exit 4), which is all these tests need.
    func login(secretFile path: String) async throws -> WebAuthBinary.Run {
        try await webauth(["login", "--issuer", "http://127.0.0.1:1", "--client-id", "x", "--client-secret-file", path, "--headless"])
    }

    @Test("a client secret file others can write: exit 64, one line naming the file; the secret is never shown")
    func writableRefused() async throws {
        let path = try file("writable-secret", mode: 0o666)
        let run = try await login(secretFile: path)
        #expect(run.status == 64, "stderr: \(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains(path) && run.stderr.contains("others can write it"),
                "stderr: \(run.stderr)")
        #expect(!run.stderr.contains("client-secret-4f1d") && run.stdout.isEmpty)
    }

    @Test("a private_key_jwt key file others can write: exit 64, one line naming the file")
    func writableKeyRefused() async throws {
        let path = try file("writable-key.pem", mode: 0o646, "-----BEGIN PRIVATE KEY-----\n")
        let run = try await webauth(["login", "--issuer", "http://127.0.0.1:1", "--client-id", "x", "--private-key-file", path, "--headless"])
        #expect(run.status == 64 && run.stderr.split(separator: "\n").count == 1 && run.stderr.contains(path), "stderr: \(run.stderr)")
    }

    @Test("group-readable: used, with one warning that names the file and says chmod 600; 0600: no word")
    func readableWarned() async throws {
        let readable = try file("readable-secret", mode: 0o640)
        let warned = try await login(secretFile: readable)
        #expect(warned.status == 4, "the secret was read and the sign-in went on: \(warned.stderr)")
        let warnings = warned.stderr.split(separator: "\n").filter { $0.hasPrefix("Warning: ") && $0.contains(readable) }
        #expect(warnings.count == 1 && warnings.first?.hasSuffix("chmod 600 \(readable)") == true, "stderr: \(warned.stderr)")

        let own = try file("own-secret", mode: 0o600)
        let silent = try await login(secretFile: own)
        #expect(silent.status == 4 && !silent.stderr.contains("Warning"), "stderr: \(silent.stderr)")
    }

    @Test("0644 on a read-only bind mount (a Kubernetes or Docker secret): used, no warning", .enabled(if: getuid() == 0))
    func readOnlyMountSilent() async throws {
        let folder = webauth.home.appendingPathComponent("secrets")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("client-secret").path
        try "client-secret-4f1d\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chmod(path, 0o644) == 0)
        // The mount is made in a mount namespace of the child's own, then webauth runs there.
        let script = "mount -o ro,bind \"$1\" \"$1\" && exec \"$2\" login --issuer http://127.0.0.1:1 --client-id x --client-secret-file \"$3\" --headless"
        let run = try await webauth.run(URL(fileURLWithPath: "/usr/bin/unshare"),
                                        ["-m", "sh", "-c", script, "sh", folder.path, WebAuthBinary.binary.path, path])
        #expect(run.status == 4, "the secret was read and the sign-in went on: \(run.stderr)")
        #expect(!run.stderr.contains("Warning"), "stderr: \(run.stderr)")
        // Outside that namespace, the same file warns: the mount made the difference.
        let outside = try await login(secretFile: path)
        #expect(outside.stderr.contains("Warning: \(path)"), "stderr: \(outside.stderr)")
    }

    @Test("no Secret Service at all: the sign-in goes to the file, and one line says where")
    func noKeyringSaysWhere() async throws {
        let provider = try await OpenIDProvider.start()
        let script = try webauth.file("login.yaml", LoginCommandTests.passwordScript)
        let run = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless", "--script", script],
                                    environment: ["ALICE_PASSWORD": OpenIDProvider.User.alice.password])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let file = webauth.home.appendingPathComponent("state/webauthsession/default.json").path
        let notes = run.stderr.split(separator: "\n").filter { $0.contains("no keyring (Secret Service) answers here") }
        #expect(notes == ["Note: no keyring (Secret Service) answers here: the sign-in was saved in \(file) (mode 0600)"], "stderr: \(run.stderr)")
        #expect(try JSONValue(parsing: run.stdout)["store"] == .string("file:" + file))
    }
}
