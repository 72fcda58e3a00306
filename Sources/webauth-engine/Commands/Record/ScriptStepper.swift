import Foundation
import OpenIDConnect
import WebAuthSession
import WebAuthCommandLine

/// `webauth record --check FILE`: the script replayed once in the window, a step at a time: each
/// step is named on stderr and runs when the person presses Enter, for whoever debugs a script
/// that broke when the provider changed its page.
struct ScriptStepper: Sendable {
    let script: LoginScript
    let narrator: Narrator
    /// The command's client, which reads the script's `outbox` and `http_auth` values on its route.
    let http: any HTTPClient

    /// The `script:` to hand to the client.
    func callAsFunction(_ session: WebAuthenticationSession) async throws {
        narrator.follow(session)
        for (index, step) in script.steps.enumerated() {
            FileHandle.standardError.write(Data("step \(index + 1) of \(script.steps.count): \(step). Press Enter to run it. ".utf8))
            guard await Self.keyPress() else { throw Stop(description: "the check ended before step \(index + 1): no more input") }
            var one = script
            one.steps = [step]
            // The page may stand still while the person reads it: only the last step watches it settle.
            one.settleTimeout = index == script.steps.count - 1 ? script.settleTimeout : nil
            do { try await one.run(in: session, environment: CommandEnvironment.original, http: http) } catch {
                throw Stop(description: "step \(index + 1) (\(step)) failed: \(error.reason)")
            }
        }
    }

    /// Why the check stopped before the redirect: a step failed, or the input ended.
    struct Stop: Error, CustomStringConvertible {
        let description: String
    }

    /// Waits for a line on stdin, on a thread of its own (a blocking read must not hold a
    /// concurrency thread); false at the end of input.
    private static func keyPress() async -> Bool {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: readLine() != nil) }
        }
    }
}
