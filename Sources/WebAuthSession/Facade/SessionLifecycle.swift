/// One run of a session, the same for every kind (the embedded page, the system browser, and
/// any other that waits for one answer): it starts once; it ends once, with its outcome, a
/// ``cancel()``, the calling task's cancellation or the timeout, whichever comes first; and its
/// owner stops and cleans up in one place before the caller resumes. Ended before it started (a
/// cancel), it throws that error when started.
@WebKitActor
final class SessionLifecycle<Value: Sendable> {
    typealias Outcome = Result<Value, WebAuthenticationError>

    /// What the owner does when the run ends.
    struct Ending: Sendable {
        /// Runs at once, when the outcome is known: stop reacting (tell the page, close a listener).
        var stop: @WebKitActor (Outcome) -> Void = { _ in }
        /// Runs next, before the caller resumes: clean up (keep a snapshot, close the window).
        var cleanUp: @WebKitActor (Outcome) async -> Void = { _ in }
    }

    private enum State {
        case idle
        case running(CheckedContinuation<Outcome, Never>, Ending)
        case ended
        case endedBeforeStart(WebAuthenticationError)
    }

    private var state = State.idle
    private var timeout: Task<Void, Never>?

    nonisolated init() {}

    /// Whether it has started and not yet ended.
    var isRunning: Bool {
        if case .running = state { true } else { false }
    }

    /// Whether it has ended (or was cancelled before it started).
    var hasEnded: Bool {
        switch state {
        case .ended, .endedBeforeStart: true
        case .idle, .running: false
        }
    }

    /// Runs `start`, then waits for ``finish(_:)``; after `timeout` it finishes with
    /// `timeoutError()`, and a cancelled task finishes it with ``WebAuthenticationError/cancelled``.
    /// - Throws: the failure it finished with; ``WebAuthenticationError/alreadyStarted`` the second time.
    func run(timeout: Duration, timeoutError: @escaping @WebKitActor () -> WebAuthenticationError, ending: Ending,
             start: @WebKitActor () -> Void) async throws(WebAuthenticationError) -> Value {
        switch state {
        case .idle: break
        case .endedBeforeStart(let error): throw error
        case .running, .ended: throw .alreadyStarted
        }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state = .running(continuation, ending)
                guard !Task.isCancelled else { return finish(.failure(.cancelled)) }
                self.timeout = Task { [weak self] in
                    guard (try? await Task.sleep(for: timeout)) != nil, let self else { return }
                    self.finish(.failure(timeoutError()))
                }
                start()
            }
        } onCancel: {
            Task { @WebKitActor in self.finish(.failure(.cancelled)) }
        }
        return try outcome.get()
    }

    /// Ends the run with `outcome`; only the first call counts. The owner's `stop` runs now, its
    /// `cleanUp` next, then the caller of ``run(timeout:timeoutError:ending:start:)`` resumes.
    func finish(_ outcome: Outcome) {
        switch state {
        case .idle:
            if case .failure(let error) = outcome { state = .endedBeforeStart(error) }
        case .running(let continuation, let ending):
            state = .ended
            timeout?.cancel()
            ending.stop(outcome)
            Task {
                await ending.cleanUp(outcome)
                continuation.resume(returning: outcome)
            }
        case .ended, .endedBeforeStart:
            break
        }
    }

    /// Ends the run with ``WebAuthenticationError/cancelled``; from anywhere, at any time.
    nonisolated func cancel() {
        Task { @WebKitActor in self.finish(.failure(.cancelled)) }
    }
}
