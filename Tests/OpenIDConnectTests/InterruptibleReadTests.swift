import Foundation
@testable import OpenIDConnect
import Synchronization
import Testing

/// How many times the test's signal handler ran.
private let interruptions = Atomic<Int>(0)

@Suite("Reads a signal interrupts", .timeLimit(.minutes(1)))
struct InterruptibleReadTests {
    @Test("a pipe read that signals keep interrupting is read again until its bytes arrive (availableData would stop the process)")
    func interruptedReadsAreRetried() async {
        await #expect(processExitsWith: .success) {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in interruptions.add(1, ordering: .relaxed) }
            action.sa_flags = 0  // no SA_RESTART: a blocked read returns EINTR
            sigemptyset(&action.sa_mask)
            sigaction(SIGURG, &action, nil)
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { exit(2) }
            let reader = FileHandle(fileDescriptor: ends[0])
            let result = Mutex<Data?>(nil)
            let readerThread = Atomic<UInt>(0)
            let thread = Thread {
                var urgent = sigset_t()  // a thread started from the pool's blocks it, as the pool's threads do
                sigemptyset(&urgent)
                sigaddset(&urgent, SIGURG)
                pthread_sigmask(SIG_UNBLOCK, &urgent, nil)
                readerThread.store(UInt(pthread_self()), ordering: .releasing)
                let chunk = reader.readChunkRetryingInterruptions()
                result.withLock { $0 = chunk }
            }
            thread.start()
            while readerThread.load(ordering: .acquiring) == 0 { sched_yield() }
            // The reader blocks in read(2) at once; nearly every one of these signals lands in it.
            while interruptions.load(ordering: .relaxed) < 2000 { pthread_kill(pthread_t(readerThread.load(ordering: .acquiring)), SIGURG) }
            _ = write(ends[1], "done", 4)
            close(ends[1])
            while result.withLock({ $0 }) == nil { sched_yield() }
            exit(result.withLock { $0 } == Data("done".utf8) ? 0 : 1)
        }
    }

    @Test("a line is read up to its newline and no further; the end of the file gives what is left, then nil")
    func lines() throws {
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data("4711\nrest".utf8))
        try pipe.fileHandleForWriting.close()
        #expect(pipe.fileHandleForReading.readLineRetryingInterruptions() == "4711")
        #expect(pipe.fileHandleForReading.readLineRetryingInterruptions() == "rest")
        #expect(pipe.fileHandleForReading.readLineRetryingInterruptions() == nil)
    }
}
