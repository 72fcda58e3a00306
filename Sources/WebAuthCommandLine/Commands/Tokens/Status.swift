import ArgumentParser
import Foundation
import OpenIDConnect
import WebAuthNetwork
import WebAuthKeyring
import WebAuthExitStatus

/// `webauth status`: is there a saved sign-in, and until when is it good?
package struct Status: AsyncParsableCommand {
    /// The command-line parser makes it.
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Say whether a sign-in is saved, for whom, until when, and in which store (JSON). Exits 6 when not signed in.")

    @OptionGroup package var profile: TokenProfileOptions

    package func run() async throws {
        try await reportingFailures(ifInterrupted: "nothing was printed", profile: profile.name) {
            let store = try await profile.store()
            guard let state = try await ProfileStore.load(profile.name, from: store) else {
                print(JSONValue.object(["signed_in": .bool(false), "store": .string(ProfileStore.describe(store))]).description)
                throw ExitCode(ExitStatus.signInRequired.rawValue)
            }
            print(SignInSummary.json(state, store: ProfileStore.describe(store)).description)
            if state.reauthenticationReason != nil { throw ExitCode(ExitStatus.signInRequired.rawValue) }
        }
    }
}
