import CWebKitGTK
import Foundation
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// GTK never paints a headless page's view (HeadlessPresentation): nobody sees the off-screen
    /// window, and WebKit's painting of a view with no frame yet waits for the web process on the
    /// engine's thread. Screenshots still show the page: WebKit's snapshot renders it.
    @Suite("Headless painting")
    struct HeadlessPainting {
        @Test("GTK paints nothing of a headless page's view, while a screenshot of it shows the page")
        func viewNotPainted() async throws {
            let site = try await TestSite.start()
            let page = site.page(body: "<style>body { background: #2B59C3 }</style><button id=go>Go</button>")
            let session = try TestEngine.session(page, redirectURI: "com.example:/cb", options: TestEngine.options(.headless))
            let run = Task { try await session.start() }
            defer { session.cancel() }
            try await session.waitForElement("#go")
            let signInPage = try #require(await session.page)
            let painted = await Task { @WebKitActor in signInPage.view.map { Self.paintedPixels(of: cwk_web_view_widget($0)) } }.value
            #expect(painted == 0, "GTK painted \(painted ?? -1) pixels of the view")
            let screenshot = try #require(PNGImage(try await session.screenshot(of: .page)))
            #expect(screenshot.count(0x2B59C3) > 10_000, "the page's background is in its screenshot")
            session.cancel()
            _ = await run.result
        }

        /// How many pixels of a 64×64 image GTK's drawing of `widget` leaves other than transparent.
        @WebKitActor
        private static func paintedPixels(of widget: UnsafeMutablePointer<GtkWidget>) -> Int {
            let side: Int32 = 64
            let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, side, side)!
            defer { cairo_surface_destroy(surface) }
            let cairo = cairo_create(surface)!
            gtk_widget_draw(widget, cairo)
            cairo_destroy(cairo)
            cairo_surface_flush(surface)
            let stride = Int(cairo_image_surface_get_stride(surface))
            let pixels = UnsafeRawPointer(cairo_image_surface_get_data(surface)!)
            return (0..<Int(side)).reduce(0) { count, row in
                count + (0..<Int(side)).filter { pixels.load(fromByteOffset: row * stride + $0 * 4, as: UInt32.self) != 0 }.count
            }
        }
    }
}
