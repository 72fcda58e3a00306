import Foundation
import TestSupport
import Testing
@testable import WebAuthSession

/// The engine's wait for the exit of WebKit's processes at shutdown (``ProcessExitDescriptor``),
/// on real processes: a `sleep` this test starts and kills.
@Suite("Process exit descriptors")
struct ProcessExitDescriptorTests {
    @Test("a wait returns once the watched process has exited (a zombie not yet reaped), and not before")
    func waitsForTheExit() async throws {
        let sleeper = try ChildProcess("/bin/sleep", ["600"], environment: [:])
        let exit = try #require(ProcessExitDescriptor(sleeper.pid))

        // Alive: the wait ends at its limit, the process still running.
        ProcessExitDescriptor.awaitAll([exit], milliseconds: 20)
        #expect(ProcessTable().entries[sleeper.pid].map { $0.state != "Z" } == true)

        kill(sleeper.pid, SIGKILL)
        ProcessExitDescriptor.awaitAll([exit], milliseconds: 60_000)
        // Exited: only a zombie is left, or nothing once reaped; the descriptor did not reap it.
        let entry = ProcessTable().entries[sleeper.pid]
        #expect(entry == nil || entry?.state == "Z")
        #expect(await sleeper.exitStatus() != 0)
    }

    @Test("a process that is gone already has no descriptor")
    func goneAlready() async throws {
        let sleeper = try ChildProcess("/bin/sleep", ["600"], environment: [:])
        sleeper.signal(SIGKILL)
        _ = await sleeper.exitStatus()  // reaped
        #expect(ProcessExitDescriptor(sleeper.pid) == nil)
    }
}
