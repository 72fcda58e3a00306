// docs/device-grant.md, "The device authorization grant (RFC 8628)", compiled (see LoginScriptSnippet.swift).
// snippet.hide
import Foundation
import OpenIDConnect
import WebAuthSession

enum DeviceGrantSnippet {
    static func run(client: OpenIDConnectClient, store: any AuthStateStore,
                    show: (String, URL, String?) -> Void, showStartAgain: () -> Void) async throws {
// snippet.show
for try await state in try await client.deviceAuthorization(scopes: ["openid", "profile"]) {
    switch state {
    case .codeIssued(let code):                     // show it: the user code, the URI, a QR code
        show(code.userCode, code.verificationURI, QRCode(code.uriForQRCode.absoluteString)?.terminalText)
    case .waiting, .slowedDown: break               // authorization_pending; slow_down (+5 s)
    case .authorized(let signedIn): try await store.save(signedIn)  // idToken validated, or nil (OAuth-only)
    case .expired, .denied: showStartAgain()       // expired_token; access_denied
    }
}
// snippet.hide
    }
}
