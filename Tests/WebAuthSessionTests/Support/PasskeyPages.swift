import Foundation
import OpenIDConnect
import TestSupport
@testable import WebAuthSession

/// What the passkey tests run in a page: an async function in one of its worlds, and helpers
/// they share in the page's JavaScript.
extension WebAuthenticationSession {
    /// Runs `body` as an async function in `world` (the page's own by default) and returns what it returns.
    func awaitInPage(_ body: String, world: SignInPage.ScriptWorld = .page, timeout: Duration = .seconds(30)) async throws -> JSONValue {
        let page = try await runningPage(before: .now + timeout, timeout: timeout, waitingFor: "the page")
        return try await withCheckedContinuation { continuation in
            page.callAsyncFunction(PasskeyPages.helpers + body, in: world) { continuation.resume(returning: $0) }
        }.get()
    }
}

enum PasskeyPages {
    /// `b64(buffer)`, `bytes(count, value)`, and `attempt(f)`, which returns `{value}` or `{error: name, message}`.
    static let helpers = """
        const b64 = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
        const bytes = (count, value) => new Uint8Array(count).fill(value);
        const attempt = async (f) => { try { return { value: await f() }; } catch (e) { return { error: e.name, message: String(e.message) }; } };

        """

    /// `create` options for `rp` (nil: the origin's host), challenge 32 × 1, user handle 7,7,7.
    static func creation(rpID: String? = nil, extra: String = "") -> String {
        """
        { publicKey: { rp: { \(rpID.map { "id: '\($0)', " } ?? "")name: 'Test' }, challenge: bytes(32, 1),
          user: { id: bytes(3, 7), name: 'alice', displayName: 'Alice' },
          pubKeyCredParams: [{ type: 'public-key', alg: -7 }, { type: 'public-key', alg: -8 }],
          authenticatorSelection: { residentKey: 'required', userVerification: 'required' }, extensions: { credProps: true } }\(extra) }
        """
    }

    /// `get` options for `rp` (nil: the origin's host), challenge 32 × 2.
    static func request(rpID: String? = nil, extra: String = "") -> String {
        "{ publicKey: { \(rpID.map { "rpId: '\($0)', " } ?? "")challenge: bytes(32, 2), userVerification: 'required' }\(extra) }"
    }

    /// A fresh credentials file path (not made yet) in the temporary directory.
    static func credentialsFile() -> String {
        TemporaryFiles.path("passkeys", fileExtension: "json").path
    }
}
