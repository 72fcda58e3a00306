import CWebKitGTK
import DevProvider
import Foundation
import OpenIDConnect
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// The desktop popup as a person sees it: header bar with title, host and connection
    /// security, progress, Cancel, and Escape.
    @Suite("Desktop popup window")
    struct PopupWindow {
        static let body = """
            <h1>Sign in</h1><button id='go' style='background:#2b59c3;color:white;border:0;width:300px;height:80px'>Sign in</button>
            """

        /// A windowed session on a page titled `title`, running, with its first page loaded.
        func shown(title: String) async throws -> (WebAuthenticationSession, Task<RedirectCallback, any Error>) {
            let site = try await TestSite.start()
            let session = try TestEngine.session(site.page(title: title, body: Self.body), redirectURI: "com.example:/cb",
                                                 options: TestEngine.options(.window()))
            let events = session.events
            let run = Task { try await session.start() }
            var (loaded, titled) = (false, false)
            for await event in events {
                if case .loadFinished = event { loaded = true }
                if case .titleChanged(let shown) = event, shown == title { titled = true }
                if loaded && titled { break }
            }
            return (session, run)
        }

        @Test("the header shows the page's title and host, says plain HTTP is not encrypted, and hides progress once loaded")
        func header() async throws {
            let (session, run) = try await shown(title: "Contoso sign-in")
            defer { session.cancel() }
            let chrome = try #require(await session.page?.chrome)
            await #expect(chrome.title == "Contoso sign-in")
            await #expect(chrome.host == "127.0.0.1")
            await #expect(chrome.security == .notEncrypted)
            await #expect(!chrome.isShowingProgress)
            session.cancel()
            _ = await run.result
        }

        @Test("a window screenshot shows the header bar above the page")
        func screenshot() async throws {
            let (session, run) = try await shown(title: "Screenshot")
            defer { session.cancel() }
            try await session.waitForElement("#go")
            // The window with a layout pending, as just after the header changed (title, host, progress).
            let signInPage = try #require(await session.page)
            await Task { @WebKitActor in signInPage.window.map { gtk_widget_queue_resize($0) } }.value
            let window = try #require(PNGImage(try await session.screenshot(of: .window)))
            let page = try #require(PNGImage(try await session.screenshot(of: .page)))
            #expect(window.width >= 480 && window.height > page.height, "the window adds the header bar to the page")
            #expect(window.count(0x2B59C3, rows: 0..<40) == 0, "no page content in the header bar")
            #expect(window.count(0x000000, tolerance: 8, rows: 0..<40) < window.width, "the header bar is drawn, not left transparent")
            #expect(window.count(0x2B59C3) > 10_000, "the page's button is visible in the window")
            session.cancel()
            _ = await run.result
        }

        @Test("Escape and the Cancel button end the sign-in as the person's cancellation, and close the window",
              arguments: ["escape", "cancel"])
        func personCancels(how: String) async throws {
            let (session, run) = try await shown(title: "Cancel me")
            let page = try #require(await session.page)
            await Task { @WebKitActor in
                if how == "escape", let window = page.window {
                    Self.pressKey(guint(GDK_KEY_Escape), in: window)
                } else if let cancel = page.chrome?.cancelButton {
                    gtk_button_clicked(cwk_button(cancel))
                }
            }.value
            await #expect(throws: WebAuthenticationError.closedByUser) { try await run.value }
            #expect(await WebAuthEngine.diagnostics.liveWebViews == 0)
        }

        /// Delivers a key press to `window` as GTK receives one from the window system.
        @WebKitActor
        static func pressKey(_ keyval: guint, in window: UnsafeMutablePointer<GtkWidget>) {
            let event = gdk_event_new(GDK_KEY_PRESS)!
            defer { gdk_event_free(event) }
            event.pointee.key.window = gtk_widget_get_window(window)
            g_object_ref(UnsafeMutableRawPointer(event.pointee.key.window))  // gdk_event_free unrefs it
            event.pointee.key.keyval = keyval
            event.pointee.key.send_event = 1
            gdk_event_set_device(event, gdk_seat_get_keyboard(gdk_display_get_default_seat(gdk_display_get_default())))
            _ = gtk_widget_event(window, event)
        }
    }
}
