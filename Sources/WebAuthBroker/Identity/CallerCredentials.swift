import Foundation

/// What the bus daemon says of a caller's connection (`GetConnectionCredentials`): its process
/// and its user. dbus 1.14 gives no process file descriptor, so the process is known by its ID
/// only, read at once: a process that exits and whose ID is reused before the broker reads
/// `/proc/PID` would be taken for the new one. The window is the time between the call and the
/// read (a fraction of a millisecond), and the new process must belong to the same user.
struct CallerCredentials: Sendable, Hashable {
    /// The caller's process ID.
    let processID: pid_t
    /// The caller's user ID.
    let userID: uid_t
}
