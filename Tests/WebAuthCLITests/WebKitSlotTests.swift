import Foundation
@testable import TestSupport
import Synchronization
import Testing

/// The semaphore under the suite-wide limit on tests that start WebKit (`WebKitSlot`): it is what
/// keeps two cores from running a hundred engines at once, so it is tested like product code.
@Suite("The WebKit slots' semaphore")
struct WebKitSlotTests {
    @Test("two permits: two tasks hold, three wait in line and get in one per release, in the order they came")
    func admitsInOrder() async throws {
        let semaphore = CountingSemaphore(2)
        let admitted = Admitted()
        var tasks: [Task<Void, Never>] = []
        for index in 0..<5 {
            tasks.append(Task {
                await semaphore.acquire()
                admitted.add(index)
            })
            // Each task is in (or in line) before the next starts, so the line's order is known.
            // A poll: nothing signals that a task has suspended in `acquire`.
            await until { admitted.list.count + semaphore.waiting == index + 1 }
        }
        #expect(admitted.list == [0, 1] && semaphore.waiting == 3)
        for released in 1...3 {
            semaphore.release()
            await until { admitted.list.count == 2 + released }
            #expect(semaphore.waiting == 3 - released)
        }
        for task in tasks { await task.value }
        #expect(admitted.list == [0, 1, 2, 3, 4])
    }

    @Test("a permit released with nobody in line goes back to the pool")
    func releaseWithoutWaiters() async {
        let semaphore = CountingSemaphore(1)
        await semaphore.acquire()
        semaphore.release()
        await semaphore.acquire()  // waits forever if the permit was lost
        #expect(semaphore.waiting == 0)
        semaphore.release()
    }

    /// The tasks that got in, in the order they did.
    private final class Admitted: Sendable {
        private let indices = Mutex<[Int]>([])
        func add(_ index: Int) { indices.withLock { $0.append(index) } }
        var list: [Int] { indices.withLock { $0 } }
    }

    private func until(_ condition: () -> Bool) async {
        while !condition() { await Task.yield() }
    }
}
