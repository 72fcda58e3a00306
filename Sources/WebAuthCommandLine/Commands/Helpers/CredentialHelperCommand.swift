import ArgumentParser
import Foundation
import OpenIDConnect
import SecretGate
import WebAuthSupport

/// The command shape git's and Docker's credential helpers share for `get` and `erase`: the
/// request on stdin, the gate of `credential_hosts`, the profile that may answer for the
/// request's site, then the cached access token dropped (`erase`) or a fresh one printed (`get`).
/// Each helper says only how its protocol's request reads, how its answer prints, and what a
/// request with no answer gets.
package protocol CredentialHelperCommand: AsyncParsableCommand {
    /// The options both helpers take.
    var helper: CredentialHelperOptions { get }

    /// The helper's name in its lines on stderr.
    static var helperName: String { get }

    /// Whether the configuration is read before the request: Docker's helper fails on a broken
    /// file whatever it is asked; git's stays silent for a request it never answers (git asks
    /// every helper, for hosts and protocols that are not ours too).
    static var readsConfigurationFirst: Bool { get }

    /// The request in what the tool wrote on stdin; `nil` when it asks for nothing we answer.
    static func request(in input: Data) -> CredentialHelperRequest?

    /// The access token `erase` says failed: only that one is dropped; `nil` drops any.
    static func failedToken(in request: CredentialHelperRequest) -> String?

    /// Prints `get`'s answer, `token` for the request in `input`.
    func printAnswer(token: String, input: Data)

    /// What the tool gets when no profile may answer.
    func noAnswer() throws
}

extension CredentialHelperCommand {
    /// Answers the `get` (or, with `erasing`, the `erase`) whose request is on stdin.
    package func answerRequest(erasing: Bool) async throws {
        let earlyGate = Self.readsConfigurationFirst ? try helper.gate() : nil
        let input = FileHandle.standardInput.readToEndRetryingInterruptions() ?? Data()
        guard let request = Self.request(in: input) else { return try noAnswer() }
        let gate = try earlyGate ?? helper.gate()
        guard let profile = helper.profile(for: request.site, in: gate, helper: Self.helperName) else { return try noAnswer() }
        if erasing { return try await helper.erase(profile, failed: Self.failedToken(in: request)) }
        printAnswer(token: try await helper.token(of: profile, for: request.site), input: input)
    }
}
