import Foundation
import OpenIDConnect

/// The environment `webauth` started with, read once into memory, and the one place that takes
/// secrets out of the process's own environment.
///
/// WebKit's web and network processes (which run the provider's JavaScript) and every other
/// program this process starts inherit its environment, and WebKitGTK 4.1 has no way to give them
/// another. So ``withholdSecrets(_:)`` removes our secret variables (``SecretVariables/known``)
/// and a login script's (its `env:` values and `secret_env:` TOTP seeds) from the environment
/// before GTK starts and before any view is made; the command reads them from ``original``.
enum CommandEnvironment {
    /// The environment as the process started, secrets included. Read first thing in `main`.
    static let original: [String: String] = ProcessInfo.processInfo.environment

    /// Removes `names` and ``SecretVariables/known`` from the process's environment (their values
    /// stay in ``original``).
    static func withholdSecrets(_ names: some Sequence<String> = []) {
        _ = original  // read before anything is removed
        for name in SecretVariables.known.union(names) where getenv(name) != nil { unsetenv(name) }
    }
}
