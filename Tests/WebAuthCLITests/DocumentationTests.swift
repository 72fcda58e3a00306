import Foundation
import TestSupport
import Testing

/// The DocC documentation builds, with every symbol link resolved, and every relative link of the
/// guides leads somewhere, on every test run (and so in CI, which runs README's test command).
@Suite("Documentation", .timeLimit(.minutes(5)))
struct DocumentationTests {
    let webauth = WebAuthBinary()

    @Test("scripts/docs builds the WebAuthSession and OpenIDConnect catalogs from this build's modules, with no warning")
    func catalogsBuild() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let output = webauth.home.appendingPathComponent("docs")
        let run = try await webauth.run(URL(fileURLWithPath: "/bin/bash"),
                                        [root.appendingPathComponent("scripts/docs").path, WebAuthBinary.binary.deletingLastPathComponent().path,
                                         output.path])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(!run.stderr.contains("warning"), "stderr: \(run.stderr)")
        for module in ["WebAuthSession", "OpenIDConnect"] {
            let archive = output.appendingPathComponent("\(module).doccarchive")
            #expect(FileManager.default.fileExists(atPath: archive.appendingPathComponent("data/documentation").path), "no pages for \(module)")
        }
        let articles = output.appendingPathComponent("WebAuthSession.doccarchive/data/documentation/webauthsession")
        for article in ["gettingstartedpopup", "gettingstartedkiosk", "gettingstartedtestharness", "signingin", "loginscripts", "passkeys",
                        "usingtheengine", "securitymodel", "errors"] {
            #expect(FileManager.default.fileExists(atPath: articles.appendingPathComponent("\(article).json").path), "no article \(article)")
        }
    }

    @Test("every relative link of README.md, CONTRIBUTING.md, docs/ and the DocC catalogs resolves: files, headings, <doc:> articles, DocC images")
    func relativeLinksResolve() throws {
        let guides = try Guides.files() + ["CONTRIBUTING.md"]
        #expect(guides.contains("docs/command-line.md") && guides.contains("Sources/WebAuthSession/WebAuthSession.docc/LoginScripts.md"), "\(guides)")
        var checked = 0
        for guide in guides {
            let links = try GuideLinks(guide)
            checked += links.targets.count
            #expect(links.broken().isEmpty, "\(guide) links to what is not there: \(links.broken())")
        }
        #expect(checked >= 60, "the links were found: \(checked)")
    }
}
