import Foundation
import Synchronization
import Testing
@testable import WebAuthSupport

/// How many times the test's signal handler ran.
private let interruptions = Atomic<Int>(0)

/// The number of read(2), as the first field of `/proc/<pid>/task/<tid>/syscall` gives it while
/// a thread is blocked in it.
#if arch(x86_64)
private let readSyscallNumber: Substring = "0"
#elseif arch(arm64)
private let readSyscallNumber: Substring = "63"
#endif

@Suite("Reads a signal interrupts", .timeLimit(.minutes(3)))  // a hang guard only
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
            let result = Mutex<Data??>(.none)  // .some(nil): the read gave up
            let readerThread = Atomic<UInt>(0)
            let readerID = Atomic<Int32>(0)
            let thread = Thread {
                var urgent = sigset_t()  // a thread started from the pool's blocks it, as the pool's threads do
                sigemptyset(&urgent)
                sigaddset(&urgent, SIGURG)
                pthread_sigmask(SIG_UNBLOCK, &urgent, nil)
                // "/proc/thread-self" links to "<pid>/task/<tid>"; Swift's Glibc has no gettid().
                let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
                readerID.store(Int32(link.split(separator: "/").last ?? "") ?? 0, ordering: .relaxed)
                readerThread.store(UInt(pthread_self()), ordering: .releasing)
                let chunk = reader.readChunkRetryingInterruptions()
                result.withLock { $0 = .some(chunk) }
            }
            thread.start()
            while readerThread.load(ordering: .acquiring) == 0 { sched_yield() }
            let (threadToSignal, readerTask) = (pthread_t(readerThread.load(ordering: .acquiring)), readerID.load(ordering: .relaxed))
            guard readerTask != 0 else { exit(2) }
            let syscallFile = "/proc/self/task/\(readerTask)/syscall"
            /// Waits until the reader is blocked in read(2) (its syscall file starts with read's
            /// number); false if its read returned instead.
            func readerBlocksInRead() -> Bool {
                while result.withLock({ $0 }) == nil {
                    if (try? String(contentsOfFile: syscallFile, encoding: .utf8))?.split(separator: " ").first == readSyscallNumber { return true }
                    sched_yield()
                }
                return false
            }
            // Each signal lands while the reader is blocked in read(2), so each read returns EINTR:
            // a reader that gives up on EINTR ends at the first with nil. Five are enough to show it
            // reads again each time; each is a hand-over between two busy threads, which a loaded
            // 2-core machine (the whole suite at once) makes slow, so no more than that.
            for sent in 1...5 {
                guard readerBlocksInRead() else { exit(1) }
                pthread_kill(threadToSignal, SIGURG)
                while interruptions.load(ordering: .relaxed) < sent { sched_yield() }
            }
            guard readerBlocksInRead() else { exit(1) }
            _ = write(ends[1], "done", 4)
            close(ends[1])
            while result.withLock({ $0 }) == nil { sched_yield() }
            exit(result.withLock { $0 } == .some(Data("done".utf8)) ? 0 : 1)
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
