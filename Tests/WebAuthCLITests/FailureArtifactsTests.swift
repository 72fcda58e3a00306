import Foundation
import Testing
@testable import WebAuthSession
@testable import webauth_engine

/// What a failed command's message says it left, checked against what is on disk.
@Suite("Failure artefacts (what the message says was left)")
struct FailureArtifactsTests {
    @Test("the message names the screenshot only when one was written (a page that did not draw in time has none)", arguments: [true, false])
    func messageNamesWhatWasWritten(drawn: Bool) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webauth-artifacts-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var report = FailureReport(reason: "step 1 failed", navigationLog: [])
        if drawn { report.screenshotPNG = Data([0x89, 0x50, 0x4E, 0x47]) }
        let message = FailureArtifacts.leave(report, in: folder.path)
        let screenshotWritten = FileManager.default.fileExists(atPath: folder.appendingPathComponent("screenshot.png").path)
        #expect(screenshotWritten == drawn)
        #expect(message.contains("screenshot, page and navigation log in \(folder.path)") == screenshotWritten, "\(message)")
        #expect(message.contains(folder.path) && message.contains("navigation log"), "\(message)")
    }
}
