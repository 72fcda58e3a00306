// README "Kiosk", what a visitor sees around the page, compiled (see LoginScriptSnippet.swift).
// snippet.hide
import Foundation
import WebAuthSession

enum KioskAppearanceSnippet {
    @WebKitActor
    static func configure(_ kiosk: KioskStation) {
// snippet.show
kiosk.appearance.title = "City Library"
kiosk.appearance.logo = URL(fileURLWithPath: "/etc/kiosk/logo.png")   // PNG, scaled to 48 px high
kiosk.appearance.accentColor = "#0b5cad"                               // any CSS colour
kiosk.appearance.idleWarning = .seconds(15)                            // nil: no warning
kiosk.appearance.language = "fr"                                       // nil: from the environment
// snippet.hide
    }
}
