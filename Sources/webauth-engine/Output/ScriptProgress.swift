import Synchronization
import WebAuthSession
import WebAuthCommandLine

/// How far the login script got, for the report of a sign-in that ended before it finished.
final class ScriptProgress: Sendable {
    private let state = Mutex<(started: Int, finished: Bool)>((0, false))

    /// Step `number` (from 1) is about to run.
    func starting(_ number: Int) {
        state.withLock { $0.started = number }
    }

    /// Every step has run.
    func finish() {
        state.withLock { $0.finished = true }
    }

    /// Names in `report` the step of `script` that was running and the ones that never ran.
    func describe(_ script: LoginScript, in report: inout FailureReport) {
        let (started, finished) = state.withLock { $0 }
        guard !finished else { return }
        let numbered = script.steps.enumerated().map { "step \($0.offset + 1): \($0.element)" }
        if started > 0 { report.step = numbered[started - 1] }
        report.stepsNotRun = Array(numbered[started...])
    }
}
