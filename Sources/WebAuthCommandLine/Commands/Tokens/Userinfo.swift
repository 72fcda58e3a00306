import ArgumentParser
import Foundation
import OpenIDConnect
import WebAuthNetwork
import WebAuthKeyring
import WebAuthExitStatus

/// `webauth userinfo`: the provider's UserInfo claims for the saved sign-in.
package struct Userinfo: AsyncParsableCommand {
    /// The command-line parser makes it.
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "userinfo",
        abstract: "Print the provider's UserInfo claims for the saved sign-in, as JSON.")

    @OptionGroup package var profile: TokenProfileOptions
    @OptionGroup package var secret: ClientSecretOptions
    @OptionGroup package var timing: TimeoutOption
    @OptionGroup(title: "Network") package var route: RouteOptions

    package func run() async throws {
        try await reportingFailures(ifInterrupted: "nothing was printed", offering: .timeout, profile: profile.name) {
            let manager = try await SavedSignIn(profile: profile, secret: secret, route: route, deadline: timing.deadline()).manager()
            do throws(AuthStateError) { print(JSONValue.object(try await manager.userinfo()).description) } catch { throw CommandFailure(error) }
        }
    }
}
