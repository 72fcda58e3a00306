import Foundation
import WebAuthCommandLine

/// `webauth batch --shard I/N`: this process signs in entry k (from 0) of the batch when k mod N
/// is I, so that N processes (a Kubernetes Indexed Job, a CI matrix) split the list with no
/// coordinator. `--shard /N` takes I from `$JOB_COMPLETION_INDEX` (what an Indexed Job's pod gets).
struct Shard: Equatable {
    /// This process's shard, from 0.
    let index: Int
    /// How many shards there are.
    let count: Int

    /// Reads `I/N`, or `/N` with I from `$JOB_COMPLETION_INDEX`.
    init(_ text: String, environment: [String: String] = CommandEnvironment.original) throws(CommandFailure) {
        let usage = "--shard takes I/N (shard I of N, from 0), or /N with I from $JOB_COMPLETION_INDEX, not '\(text)'"
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let count = Int(parts[1]), count > 0 else { throw CommandFailure(.usage, usage) }
        let index: Int
        if parts[0].isEmpty {
            guard let given = environment["JOB_COMPLETION_INDEX"], !given.isEmpty else {
                throw CommandFailure(.usage, "--shard \(text) takes its index from $JOB_COMPLETION_INDEX, which is not set: give I/N")
            }
            guard let number = Int(given) else {
                throw CommandFailure(.usage, "$JOB_COMPLETION_INDEX is '\(given)', not a shard index (a number from 0)")
            }
            index = number
        } else {
            guard let number = Int(parts[0]) else { throw CommandFailure(.usage, usage) }
            index = number
        }
        guard (0..<count).contains(index) else {
            throw CommandFailure(.usage, "shard \(index) of \(count) does not exist: the index goes from 0 to \(count - 1)")
        }
        self.index = index
        self.count = count
    }
}
