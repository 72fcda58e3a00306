import OpenIDConnect
import Testing
@testable import WebAuthSession

/// The kiosk's settings are one value; the names they had before (release 0.x) still build,
/// deprecated, and read and write that value. This file calls them on purpose.
@Suite("Kiosk settings and their deprecated names")
struct KioskSettingsTests {
    @Test("Presentation.kiosk(allowedHosts:idleTimeout:) and options.kiosk read and write the presentation's KioskSettings")
    @available(*, deprecated)
    func presentationAliases() {
        let expected = KioskSettings(allowedHosts: ["idp.example"], idleTimeout: .seconds(5))
        #expect(WebAuthenticationOptions.Presentation.kiosk(allowedHosts: ["idp.example"], idleTimeout: .seconds(5)).kioskSettings == expected)
        #expect(WebAuthenticationOptions.Presentation.kiosk(idleTimeout: .seconds(7)).kioskSettings?.idleTimeout == .seconds(7))
        #expect(WebAuthenticationOptions.Presentation.window().kioskSettings == nil)

        var options = WebAuthenticationOptions()
        options.presentation = .kiosk(expected)
        options.kiosk.title = "City Library"
        #expect(options.presentation.kioskSettings?.title == "City Library")
        #expect(options.presentation.kioskSettings?.allowedHosts == ["idp.example"])

        options.presentation = .headless
        options.kiosk.title = "ignored"
        #expect(options.presentation == .headless)
        #expect(options.kiosk == KioskSettings())
    }

    @Test("KioskStation's allowedHosts, idleTimeout and appearance are its settings")
    @available(*, deprecated)
    func stationAliases() async throws {
        _ = TestEngine.options()  // the engine on its private Xvfb
        let client = OpenIDConnectClient(issuer: "https://id.example", clientID: "kiosk", redirectURI: try RedirectURI("com.example:/cb"))
        let settings = await Task { @WebKitActor in
            let kiosk = KioskStation(client: client, allowedHosts: ["idp.example"], idleTimeout: .seconds(30))
            kiosk.idleTimeout = .seconds(60)
            kiosk.appearance.title = "Library"
            kiosk.allowedHosts.append("partner.example")
            return kiosk.settings
        }.value
        #expect(settings.allowedHosts == ["idp.example", "partner.example"])
        #expect(settings.idleTimeout == .seconds(60))
        #expect(settings.title == "Library")
    }
}
