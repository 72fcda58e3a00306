import Foundation
import Synchronization
import OpenIDConnect
import WebAuthNetwork
import WebAuthKeyring
import WebAuthExitStatus

/// The environment `webauth` started with, read once into memory, and the one place that takes
/// secrets out of the process's own environment.
///
/// WebKit's web and network processes (which run the provider's JavaScript) and every other
/// program this process starts inherit its environment, and WebKitGTK 4.1 has no way to give them
/// another. So ``withholdSecrets(_:)`` removes our secret variables (``SecretVariables/known``)
/// and a login script's (its `env:` values and `secret_env:` TOTP seeds) from the environment
/// before GTK starts and before any view is made; the command reads them from ``original``. Their
/// values are blanked in the block `/proc/PID/environ` shows as well, which `unsetenv` leaves as it
/// was: a process viewer or a crash reporter of the same user reads that block.
package enum CommandEnvironment {
    /// The environment as the process started, secrets included. Read first thing in `main`.
    package static let original: [String: String] = ProcessInfo.processInfo.environment

    /// Removes `names` and ``SecretVariables/known`` from the process's environment and blanks their
    /// values in its initial environment block (their values stay in ``original``).
    package static func withholdSecrets(_ names: some Sequence<String> = []) {
        _ = original  // read before anything is removed
        let names = SecretVariables.known.union(names)
        for name in names where getenv(name) != nil { unsetenv(name) }
        InitialEnvironmentBlock.blankValues(of: names)
    }

}
