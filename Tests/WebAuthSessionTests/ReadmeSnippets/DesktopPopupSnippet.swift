// GettingStartedPopup.md, "What the person sees", compiled (see LoginScriptSnippet.swift).
// snippet.hide
import OpenIDConnect
import WebAuthSession

enum DesktopPopupSnippet {
    static func run(client: OpenIDConnectClient, myGtkWindow: UnsafeMutableRawPointer) async throws -> SignInResult {
// snippet.show
var options = WebAuthenticationOptions()                                  // .window() is the default presentation
options.parentWindow = ParentWindow(gtkWindow: myGtkWindow)     // optional: transient for and modal to your window
let result = try await client.signIn(options: options)
// snippet.hide
        return result
    }
}
