import Foundation
import OpenIDConnect
import WebAuthBrokerClient
import WebAuthBrokerContract
import WebAuthNetwork
import WebAuthKeyring
import WebAuthExitStatus

/// A token from the running sign-in broker (`webauth broker`), for the commands that only need one
/// (`token`, `env`, `exec`, `kubernetes-credential`, `git-credential`, `docker-credential`): the
/// broker holds the sign-in in memory, so the command reads no store. Only when the broker would
/// give what the command's own path gives: the profile's usual store (no `--store`), the client's
/// secret or key found where the saved sign-in says (none given to this command), and the
/// network route of the default configuration file (the caller checks its own flags). No broker
/// running, or one that cannot serve the request: `nil`, and the command reads the store itself.
package enum BrokeredToken {
    /// `profile`'s access token for `target`, valid for `minimumValidity` seconds more (`nil`: the
    /// broker's minute), from the running broker within what is left of `deadline`.
    /// - Returns: `nil` when the broker cannot stand in for the saved sign-in (see above).
    /// - Throws: ``CommandFailure``: the broker's answer, as the command's own path reports it.
    package static func fetch(profile: some ProfileChoice, secret: ClientSecretOptions, minimumValidity: Int?, target: AccessTokenTarget,
                      deadline: CommandDeadline, environment: [String: String] = CommandEnvironment.original) throws(CommandFailure) -> AccessToken? {
        guard profile.store == nil, secret.namesNone,
              !["WEBAUTH_CLIENT_SECRET", "WEBAUTH_PKCS11_PIN"].contains(where: { environment[$0] != nil }),
              let account = try? AccountName.checked(profile.name) else { return nil }
        let options = TokenOptions(account: account, minimumValidity: minimumValidity.map { .seconds($0) }, scopes: target.scopes,
                                   resources: target.resources)
        do { return try BrokerTokenClient.token(options, environment: environment, timeout: deadline.remaining) } catch {
            throw CommandFailure(error)
        }
    }
}
