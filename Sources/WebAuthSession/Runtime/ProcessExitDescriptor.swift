import Foundation

/// One process's exit, watched through a process file descriptor (`pidfd_open(2)`): readable once
/// the process has exited (a zombie, or reaped), whoever its parent is, and naming that process
/// only, even after its number is reused. Closed when the value goes.
final class ProcessExitDescriptor {
    private let descriptor: Int32

    /// Watches `pid`; `nil` if it is gone already (or the kernel has no process descriptors).
    init?(_ pid: pid_t) {
        guard let open = Self.pidfdOpen else { return nil }
        let descriptor = open(pid, 0)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }

    deinit { close(descriptor) }

    /// Returns once every process in `exits` has exited, or after `milliseconds`.
    static func awaitAll(_ exits: [ProcessExitDescriptor], milliseconds: Int) {
        var waiting = exits.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        let deadline = ContinuousClock.now + .milliseconds(milliseconds)
        while !waiting.isEmpty {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return }
            let ready = poll(&waiting, nfds_t(waiting.count), Int32((left / .milliseconds(1)).rounded(.up)))
            if ready < 0, errno != EINTR { return }
            waiting.removeAll { $0.revents != 0 }
        }
    }

    /// glibc's `pidfd_open` (2.36), which Swift's Glibc module does not import (`<sys/pidfd.h>`).
    private static let pidfdOpen: (@convention(c) (pid_t, UInt32) -> Int32)? = dlsym(nil, "pidfd_open")  // RTLD_DEFAULT
        .map { unsafeBitCast($0, to: (@convention(c) (pid_t, UInt32) -> Int32).self) }
}
