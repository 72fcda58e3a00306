import CWebKitGTK
import DevProvider
import Foundation
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// A sign-in never downloads, in any presentation: a response WebKit would save is refused,
    /// a download WebKit starts anyway is cancelled, and each is in the navigation log.
    @Suite("Downloads are refused")
    struct Downloads {
        @Test("HTML and binary attachments and a download link are refused and logged in every presentation; nothing is written to HOME or its download directory; the redirect is still captured (in a child process)")
        func refused() async {
            await #expect(processExitsWith: .success) {
                let home = try Downloads.privateHome()
                let status = try await Downloads.refusalStatus(home: home)
                await WebAuthEngine.shutdown()
                try? FileManager.default.removeItem(at: home)
                exit(status)
            }
        }

        /// A scratch HOME whose XDG download directory is `HOME/Downloads`, set before GLib reads
        /// either (it does so once per process: call it in a child process only).
        static func privateHome() throws -> URL {
            let home = FileManager.default.temporaryDirectory.appendingPathComponent("webauth-downloads-\(UUID().uuidString)")
            let config = home.appendingPathComponent(".config")
            try FileManager.default.createDirectory(at: home.appendingPathComponent("Downloads"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
            try Data("XDG_DOWNLOAD_DIR=\"$HOME/Downloads\"\n".utf8).write(to: config.appendingPathComponent("user-dirs.dirs"))
            setenv("HOME", home.path, 1)
            setenv("XDG_CONFIG_HOME", config.path, 1)
            return home
        }

        /// Clicks each download in a headless page, a window and a kiosk; 0 when each was refused
        /// and logged, each session still captured its redirect, and no file was written.
        static func refusalStatus(home: URL) async throws -> Int32 {
            let site = try await TestSite.start()
            let html = site.serve(LocalHTTPResponse(headers: ["Content-Type": "text/html; charset=utf-8",
                                                              "Content-Disposition": #"attachment; filename="webauth-report.html""#],
                                                    body: "<p>a page sent as an attachment</p>"))
            let binary = site.serve(LocalHTTPResponse(headers: ["Content-Type": "application/octet-stream",
                                                                "Content-Disposition": #"attachment; filename="webauth-payload.bin""#],
                                                      body: "payload"))
            let linked = site.page(body: "<p>a page saved by a download link</p>")
            let page = site.page(body: """
                <a id='html' href='\(html.absoluteString)'>report</a>
                <a id='binary' href='\(binary.absoluteString)'>payload</a>
                <a id='link' href='\(linked.absoluteString)' download='webauth-saved.html'>save</a>
                """)
            // Where WebKit would save a download.
            let downloadDirectory = g_get_user_special_dir(G_USER_DIRECTORY_DOWNLOAD).map { String(cString: $0) }
            guard downloadDirectory == home.appendingPathComponent("Downloads").path else { return 2 }

            for presentation in [WebAuthenticationOptions.Presentation.headless, .window(), .kiosk()] {
                let session = try TestEngine.session(page, redirectURI: "com.example:/cb", options: TestEngine.options(presentation))
                let recorder = EventRecorder(session)
                let run = Task { try await session.start() }
                guard await recorder.firstLoadFinished() != nil else { return 3 }
                for (id, url) in [("html", html), ("binary", binary), ("link", linked)] {
                    var index = await recorder.decisionCount
                    try await session.evaluateJavaScript("document.getElementById('\(id)').click(); null")
                    var decision: NavigationDecision?
                    repeat {  // skip the link's own navigation, which is allowed
                        decision = await recorder.decision(after: index)
                        index += 1
                    } while decision?.verdict == .allowed
                    guard decision == NavigationDecision(url: url.absoluteString, verdict: .refused(.download)) else { return 4 }
                }
                try await session.evaluateJavaScript("location.href = 'com.example:/cb?code=after-downloads'; null")
                guard try await run.value["code"] == "after-downloads" else { return 5 }
                guard await session.navigationLog.count(where: { $0.kind == .refused && $0.detail == "download" }) == 3 else { return 6 }
            }

            guard try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("Downloads").path).isEmpty else { return 7 }
            let files = FileManager.default.enumerator(atPath: home.path)?.allObjects as? [String] ?? []
            guard !files.contains(where: { $0.contains("webauth-") }) else { return 8 }
            return 0
        }
    }
}
