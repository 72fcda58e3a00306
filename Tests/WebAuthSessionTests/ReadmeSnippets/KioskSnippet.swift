// GettingStartedKiosk.md's overview, compiled (see LoginScriptSnippet.swift).
// snippet.hide
import OpenIDConnect
import WebAuthSession

enum KioskSnippet {
    static func run(client: OpenIDConnectClient, checkIn: (_ subject: String) async -> Void) async throws {
// snippet.show
let settings = KioskSettings(allowedHosts: ["login.partner-idp.example"], idleTimeout: .seconds(90))
let kiosk = await KioskStation(client: client, settings: settings)
while true {
    let visitor = try await kiosk.nextVisitor()     // start screen → sign-in → back to the start screen if abandoned
    await checkIn(visitor.idToken.subject)
}
// snippet.hide
    }
}
