import Foundation
import OpenIDConnect
import SecretGate

/// The check every command makes before it hands out an access token (printed, exported, put in
/// a program's environment or a helper's answer): ``TokenText`` refuses one with a character
/// outside `%x20-7E`, which could end a line of git's protocol or a shell line and add its own.
package enum TokenRelease {
    /// Lets `token` of `profile` go to `recipient`, or fails with the provider's error status.
    package static func check(_ token: String, profile: String, to recipient: SecretRecipient) throws(CommandFailure) {
        do { try TokenText.check(token, as: .accessToken(profile: profile), to: recipient) } catch {
            throw CommandFailure(.providerError, "\(error)",
                                 advice: "Nothing was printed. Tell the provider's administrator: an access token must be printable ASCII (RFC 6750).")
        }
    }
}
