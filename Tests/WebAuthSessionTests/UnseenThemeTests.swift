import CWebKitGTK
import Foundation
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// On a private Xvfb started because there is no display, GTK parses no theme: no person can
    /// see a widget there, and Adwaita's rules cost the cold start their parse (GTKEnvironment's
    /// `unseenTheme`). A display a configuration asks for (`.virtual`, which shows windows) keeps Adwaita.
    @Suite("The theme of an unseen display")
    struct UnseenTheme {
        /// The natural height of an empty GTK button (shown: a hidden widget measures nothing):
        /// Adwaita gives buttons a minimum height, a border and padding; an empty theme, none.
        @WebKitActor
        static func emptyButtonHeight() -> Int32 {
            let button = gtk_button_new()!
            g_object_ref_sink(button)
            gtk_widget_show(button)
            defer {
                gtk_widget_destroy(button)
                g_object_unref(button)
            }
            var minimum: Int32 = 0
            var natural: Int32 = 0
            gtk_widget_get_preferred_height(button, &minimum, &natural)
            return natural
        }

        @Test("with no display, GTK's widgets get an empty theme (in a child process); on a .virtual display, Adwaita")
        func emptyWhereUnseen() async throws {
            await #expect(processExitsWith: .success) {
                unsetenv("DISPLAY")
                unsetenv("WAYLAND_DISPLAY")
                unsetenv("GTK_THEME")
                try await WebAuthEngine.prewarm()
                guard getenv("GTK_THEME").map({ String(cString: $0) }) == GTKEnvironment.unseenThemeName else { exit(2) }
                let height = await Task { @WebKitActor in UnseenTheme.emptyButtonHeight() }.value
                exit(height == 0 ? 0 : 3)
            }
            try await EngineTests.PrivateDisplay.startEngine()  // the tests' engine: a .virtual display
            let adwaita = await Task { @WebKitActor in Self.emptyButtonHeight() }.value
            #expect(adwaita > 0, "Adwaita's button has a height of its own")
        }
    }
}
