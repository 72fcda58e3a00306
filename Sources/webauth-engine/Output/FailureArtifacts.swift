import Foundation
import WebAuthSession
import WebAuthCommandLine

/// What a failed page leaves for a person to look at (`--artifacts`): its screenshot, page
/// facts and navigation log, for `login` and `logout` alike.
enum FailureArtifacts {
    /// The report of the page `error` ended on, when one is to be left: the login script's own,
    /// else the session's snapshot when a script ran or `requested` (`--artifacts`); with the
    /// steps that never ran.
    static func report(of error: SignInError, session: WebAuthenticationSession?, script: LoginScript?,
                       progress: ScriptProgress, requested: Bool) async -> FailureReport? {
        if case .script(let failure) = error, let report = failure.report { return report }
        guard var report = await session?.failureSnapshot, script != nil || requested else { return nil }
        if let script { progress.describe(script, in: &report) }
        return report
    }

    /// Writes `report` to `directory` (or a new one under `$TMPDIR`) and returns the words that
    /// say where, to end the failure's message with.
    static func leave(_ report: FailureReport, in directory: String?) -> String {
        let target = directory.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("webauth-failure-\(UUID().uuidString.prefix(8))")
        do { try report.write(to: target) } catch {
            return " (no artifacts: \(target.path): \(error.localizedDescription))"
        }
        // The screenshot is missing when the page did not draw within the report's time.
        return report.screenshotPNG == nil ? "; page and navigation log (no screenshot: the page did not draw in time) in \(target.path)"
            : "; screenshot, page and navigation log in \(target.path)"
    }
}
