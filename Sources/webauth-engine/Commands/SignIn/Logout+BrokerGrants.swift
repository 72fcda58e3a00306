import WebAuthBroker
import WebAuthCommandLine

extension Logout {
    /// Forgets every app's broker grant on the profile, whose sign-in is gone: an app that was
    /// allowed this sign-in is not allowed the next one made under the same name.
    static func forgetBrokerGrants(_ profile: ProfileOptions) throws(CommandFailure) {
        do { try ConsentStore(environment: CommandEnvironment.original).forget(account: profile.name) } catch {
            throw CommandFailure(.localFailure, "the sign-in is gone, but the broker's answers about it could not be forgotten: \(error)")
        }
    }
}
