import DevProvider
import Foundation
import OpenIDConnect
import TestSupport

/// A resource server on 127.0.0.1 that lets a request through only with an access token the
/// development provider accepts (checked at its userinfo endpoint), else answers 401: git's
/// smart HTTP (`git http-backend`, Basic `oauth2:TOKEN`) or a Kubernetes API over HTTPS with a
/// self-signed certificate (Bearer). `Fixtures/token_checking_server.py`, in a child process.
struct TokenCheckingServer {
    /// What it serves.
    enum Kind: String {
        /// The bare repositories under a folder, to clone over `http://`.
        case git
        /// `https://` with a certificate in ``TokenCheckingServer/folder`` (`cert.pem`); every GET an empty list.
        case kube
    }

    let child: ChildProcess
    let port: Int
    /// The repositories' root (git), or where the certificate is (kube).
    let folder: URL

    init(_ kind: Kind, provider: OpenIDProvider, folder: URL) async throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("WebAuthSessionTests/Fixtures/token_checking_server.py")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.folder = folder
        child = try ChildProcess("python3", [script.path, provider.issuer + "/userinfo", kind.rawValue, folder.path],
                                 environment: ProcessInfo.processInfo.environment, stdout: .pipe)
        guard let port = await child.firstLine().flatMap(Int.init) else { throw CocoaError(.fileReadCorruptFile) }
        self.port = port
    }

    /// The server's certificate (kube).
    var certificate: String { folder.appendingPathComponent("cert.pem").path }

    func stop() async { await child.stop() }
}
