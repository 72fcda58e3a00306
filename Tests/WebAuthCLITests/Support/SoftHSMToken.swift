import Foundation
import TestSupport

/// A SoftHSM2 PKCS#11 token in a directory of its own (`SOFTHSM2_CONF` in ``environment``), with
/// a private key (and its certificate, when there is one) on it as the object `object`. p11-kit finds SoftHSM's module
/// through the file Debian's package registers (`/usr/share/p11-kit/modules/softhsm2.module`).
struct SoftHSMToken {
    /// The token's label.
    let label = "webauth-\(UUID().uuidString.prefix(8))"
    /// The user PIN.
    let pin = "pin-\(UUID().uuidString.prefix(6))"
    /// What a program that uses the token needs in its environment.
    let environment: [String: String]
    /// The label of the certificate and key on the token.
    let object = "login"

    /// The PKCS#11 URI of the key (and its certificate).
    var uri: String { "pkcs11:token=\(label);object=\(object)" }

    /// Makes the token and puts the PEM files `key` and `certificate` (if any) on it.
    init(certificate: String? = nil, key: String) async throws {
        let directory = TemporaryFiles.folder("softhsm")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("tokens"), withIntermediateDirectories: true)
        let configuration = directory.appendingPathComponent("softhsm2.conf")
        try "directories.tokendir = \(directory.appendingPathComponent("tokens").path)\nobjectstore.backend = file\nlog.level = ERROR\n"
            .write(to: configuration, atomically: true, encoding: .utf8)
        environment = ["SOFTHSM2_CONF": configuration.path]
        try await run("softhsm2-util", ["--init-token", "--free", "--label", label, "--pin", pin, "--so-pin", "so-\(pin)"])
        for (option, file) in [("--load-privkey", key)] + (certificate.map { [("--load-certificate", $0)] } ?? []) {
            // p11tool reads the PIN from GNUTLS_PIN, not its arguments.
            try await run("p11tool", ["--login", "--write", option, file, "--label", object, "--id", "01", "pkcs11:token=\(label)"],
                          ["GNUTLS_PIN": pin])
        }
    }

    private func run(_ program: String, _ arguments: [String], _ extra: [String: String] = [:]) async throws {
        let child = try ChildProcess(program, arguments, environment: ProcessInfo.processInfo.environment.merging(environment.merging(extra) { $1 }) { $1 })
        let status = await child.exitStatus()
        guard status == 0 else { throw POSIXError(.EIO, userInfo: [NSLocalizedDescriptionKey: "\(program) \(arguments.first ?? "") exited \(status)"]) }
    }
}
