/// A continuation that several racing events may try to resume; the first wins, the rest are
/// ignored, and cleanup actions (cancelling a timer) run when it resumes.
@WebKitActor
final class OneShot<Value: Sendable> {
    private var continuation: CheckedContinuation<Value, Never>?
    private var cleanups: [@WebKitActor () -> Void] = []

    init(_ continuation: CheckedContinuation<Value, Never>) {
        self.continuation = continuation
    }

    /// Resumes with `value` unless something already did.
    func resume(_ value: Value) {
        guard let continuation else { return }
        self.continuation = nil
        for cleanup in cleanups { cleanup() }
        cleanups = []
        continuation.resume(returning: value)
    }

    /// Runs `cleanup` when this resumes.
    func onResume(_ cleanup: @escaping @WebKitActor () -> Void) {
        cleanups.append(cleanup)
    }

    /// Resumes with `value` at `deadline`, unless something else resumes first.
    func resume(_ value: Value, at deadline: ContinuousClock.Instant) {
        let timer = Task { @WebKitActor in
            guard (try? await Task.sleep(until: deadline)) != nil else { return }
            self.resume(value)
        }
        onResume { timer.cancel() }
    }
}
