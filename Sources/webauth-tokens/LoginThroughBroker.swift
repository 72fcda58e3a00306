import ArgumentParser
import Foundation
import OpenIDConnect
import WebAuthBrokerContract
import WebAuthCommandLine
import WebAuthExitStatus
import WebAuthFront

/// `webauth login` through the running sign-in broker (``BrokeredLogin`` says when): its `SignIn`
/// in a window of the broker's warm engine, then the summary `login` prints, read from the sign-in
/// the broker saved. With no broker, one with no display for the window (a broker started before
/// the desktop's session gave it one), or one that refuses the account as it is saved
/// (`InvalidArgument`: another issuer, a confidential client...), the sign-in runs in-process
/// after all (``EngineRequired``), before any page has opened. Ctrl-C closes the request and its window.
enum LoginThroughBroker {
    /// Signs `login` in through the broker and prints the summary.
    /// - Throws: ``EngineRequired`` when the broker cannot do it; `ExitCode` once a failure is reported.
    static func run(_ login: BrokeredLogin) async throws {
        try await reportingFailures(ifInterrupted: "the sign-in was cancelled; nothing was saved", offering: .timeout, profile: login.account) {
            let answer = await BrokerSignInCall.signIn(parentWindow: "", options: login.options, environment: CommandEnvironment.original,
                                                       timeout: .seconds(login.timeoutSeconds))
            switch answer {
            case .response(RequestResponse.success.rawValue, let results): try await printSummary(of: login, signedIn: results)
            case .response(_, let results): throw try failure(results)
            case .refused(.invalidArgument, _), .refused(.accessDenied, _), .noBroker, .cannotShowWindows: throw EngineRequired()
            case .refused(let name, let message): throw CommandFailure(ExitStatus(rawValue: Int32(name.exitStatus)) ?? .localFailure, message)
            case .brokerLeft: throw CommandFailure(.localFailure, "the sign-in broker left before the sign-in ended; nothing was saved")
            case .timedOut: throw CommandFailure(.timedOut, "the sign-in broker gave no answer in time; nothing was saved")
            case .cancelled: throw CancellationError()
            }
        }
    }

    /// What a request that did not succeed says, as `login` reports it; ``EngineRequired`` for the
    /// broker's `InvalidArgument`, given before any page opens.
    private static func failure(_ results: [String: BusValue]) throws -> CommandFailure {
        guard case .string(let name)? = results["error_name"], name != BrokerErrorName.invalidArgument.rawValue else { throw EngineRequired() }
        let message: String = if case .string(let text)? = results["error"] { text } else { "the sign-in broker's request failed" }
        let status: ExitStatus = if case .uint32(let code)? = results["exit_status"] { ExitStatus(rawValue: Int32(clamping: code)) ?? .localFailure } else { .localFailure }
        return CommandFailure(status, message)
    }

    /// Prints the saved sign-in as `webauth login` does: the one the broker saved, whose access
    /// token `signedIn` holds. Its file is read first, as with the keyring, and holds it when the
    /// broker saved there: then no Secret Service is asked.
    private static func printSummary(of login: BrokeredLogin, signedIn: [String: BusValue]) async throws(CommandFailure) {
        let file = try await ProfileStore.forReading(name: login.account, choice: .file)
        var store: any AuthStateStore = file
        var state = try await ProfileStore.load(login.account, from: file)
        if state == nil || state?.accessToken != BrokerResults.accessToken(in: signedIn)?.token {
            store = try await ProfileStore.forReading(name: login.account, choice: nil)
            state = try await ProfileStore.load(login.account, from: store)
        }
        guard let state else {
            throw CommandFailure(.localFailure, "the sign-in broker signed in, but no sign-in named '\(login.account)' is saved in \(ProfileStore.describe(store))")
        }
        print(SignInSummary.json(state, store: ProfileStore.describe(store), showTokens: login.showsTokens).description)
    }
}
