/// Those waiting for a sign-in page's next committed or finished load, or its end: each is
/// called once, at the next ``wakeAll()``. The page decides when that is; this keeps the list.
@WebKitActor
final class PageChangeWaiters {
    private var waiters: [@WebKitActor () -> Void] = []

    /// Calls `waiter` at the next ``wakeAll()``.
    func add(_ waiter: @escaping @WebKitActor () -> Void) {
        waiters.append(waiter)
    }

    /// Calls every waiter once; those added meanwhile wait for the next time.
    func wakeAll() {
        let woken = waiters
        waiters = []
        for waiter in woken { waiter() }
    }
}
