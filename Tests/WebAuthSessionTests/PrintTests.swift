import Foundation
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// `window.print()` opens no print dialog where nobody should print: a kiosk (the dialog
    /// leads out of it) and a headless page (nobody can answer it).
    @Suite("Printing")
    struct Printing {
        @Test("window.print() is refused and logged in a kiosk and a headless page; no dialog opens and the page goes on to the redirect",
              arguments: [WebAuthenticationOptions.Presentation.kiosk(), .headless])
        func refused(presentation: WebAuthenticationOptions.Presentation) async throws {
            let site = try await TestSite.start()
            let page = site.page(body: """
                <script>addEventListener('load', () => { window.print(); location.href = 'com.example:/cb?printed=yes' })</script>
                """)
            let session = try TestEngine.session(page, redirectURI: "com.example:/cb", options: TestEngine.options(presentation))
            let recorder = EventRecorder(session)
            let callback = try await session.start()
            #expect(callback["printed"] == "yes")
            #expect(await recorder.all().contains(.printRefused(url: page.absoluteString)))
            #expect(await session.navigationLog.contains { $0.kind == .printRefused && $0.value == page.absoluteString })
            #expect(await WebAuthEngine.diagnostics.toplevelWindows == 0, "no print dialog (or any other window) is left")
        }
    }
}
