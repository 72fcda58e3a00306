import ArgumentParser
import Foundation
import OpenIDConnect
import WebAuthSession

/// `webauth userinfo`: the provider's UserInfo claims for the saved sign-in.
struct Userinfo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the provider's UserInfo claims for the saved sign-in, as JSON.")

    @OptionGroup var profile: TokenProfileOptions
    @OptionGroup var secret: ClientSecretOptions
    @OptionGroup var timing: TimeoutOption
    @OptionGroup(title: "Network") var route: RouteOptions

    func run() async throws {
        try await reportingFailures(ifInterrupted: "nothing was printed", offering: .timeout, profile: profile.name) {
            let manager = try await SavedSignIn(profile: profile, secret: secret, route: route, deadline: timing.deadline()).manager()
            do throws(AuthStateError) { print(JSONValue.object(try await manager.userinfo()).description) } catch { throw CommandFailure(error) }
        }
    }
}
