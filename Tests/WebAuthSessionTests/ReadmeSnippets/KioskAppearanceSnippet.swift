// GettingStartedKiosk.md, what a visitor sees around the page, compiled (see LoginScriptSnippet.swift).
// snippet.hide
import Foundation
import WebAuthSession

enum KioskAppearanceSnippet {
    @WebKitActor
    static func configure(_ kiosk: KioskStation) {
// snippet.show
kiosk.settings.title = "City Library"
kiosk.settings.logo = URL(fileURLWithPath: "/etc/kiosk/logo.png")   // PNG, scaled to 48 px high
kiosk.settings.accentColor = "#0b5cad"                               // any CSS colour
kiosk.settings.idleWarning = .seconds(15)                            // nil: no warning
kiosk.settings.language = "fr"                                       // nil: from the environment
// snippet.hide
    }
}
