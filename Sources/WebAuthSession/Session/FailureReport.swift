import Foundation
import OpenIDConnect
import WebAuthSupport

/// Everything needed to fix a login script without running it again: the failed step and why,
/// the page's URL, title and visible text, a screenshot, and the navigation log.
public struct FailureReport: Sendable, Hashable {
    /// The step that failed (its description), if a script was running.
    public var step: String?
    /// The script's steps that never ran (their descriptions), when the sign-in ended first.
    public var stepsNotRun: [String] = []
    /// Why it failed.
    public var reason: String?
    /// The page's URL.
    public var url: String?
    /// The page's title.
    public var title: String?
    /// The page's visible text (`innerText`: what a person reads, not the fields' values).
    public var visibleText: String?
    /// What the page looked like, as PNG.
    public var screenshotPNG: Data?
    /// The session's navigation log up to the failure.
    public var navigationLog: [NavigationLogEntry]

    /// How long reading the page and drawing its screenshot may take: a person is already
    /// waiting for a failure, and a page on a busy machine (many web processes on two cores)
    /// took more than 5 s to draw, which left reports without their screenshot.
    static let readingTime = Duration.seconds(15)

    /// Writes `screenshot.png`, `page.json` (step, steps not run, reason, URL, title, text) and
    /// `navigation.json` into `directory` (created with its missing parents, mode 0700), each
    /// file mode 0600, and returns their URLs.
    @discardableResult
    public func write(to directory: URL) throws -> [URL] {
        try PrivateFile.makeDirectory(directory)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var written: [URL] = []
        func save(_ data: Data, _ name: String) throws {
            let url = directory.appendingPathComponent(name)
            try PrivateFile.write(data, to: url)
            written.append(url)
        }
        if let screenshotPNG { try save(screenshotPNG, "screenshot.png") }
        try save(try encoder.encode(PageFacts(step: step, stepsNotRun: stepsNotRun, reason: reason, url: url, title: title, visibleText: visibleText)), "page.json")
        try save(try encoder.encode(navigationLog), "navigation.json")
        return written
    }

    private struct PageFacts: Encodable {
        let step: String?
        let stepsNotRun: [String]
        let reason: String?
        let url: String?
        let title: String?
        let visibleText: String?

        enum CodingKeys: String, CodingKey {
            case step, reason, url, title
            case stepsNotRun = "steps_not_run"
            case visibleText = "visible_text"
        }
    }
}
