import Foundation
import PrivateDisplay
import WebAuthSupport

/// The private Xvfb a headless `webauth login` will need where there is no display, started by
/// `webauth` before it becomes `webauth-engine` (``XvfbHandOver``), so that the server starts
/// while the engine loads.
package enum HeadlessLoginDisplay {
    /// Whether `arguments` (the process's, its name first) are a headless `login` (`--headless`,
    /// not `--help`) and `environment` names no display: the engine will then start a private Xvfb
    /// with its default screen.
    package static func isNeeded(_ arguments: [String], environment: [String: String]) -> Bool {
        guard arguments.dropFirst().first == "login", !GraphicalSession.hasDisplay(environment) else { return false }
        let options = arguments.dropFirst(2)
        return options.contains("--headless") && !options.contains("--help") && !options.contains("-h")
    }

    /// When `arguments` need it, starts the server and returns `environment` naming it for the
    /// engine, with what stops it if the engine cannot be started; nil when none started.
    package static func start(for arguments: [String], environment: [String: String])
        -> (environment: [String: String], abandon: () -> Void)? {
        guard isNeeded(arguments, environment: environment), let started = XvfbHandOver.start(.headlessDefault) else { return nil }
        return (environment.merging([XvfbHandOver.variable: started.value]) { $1 }, started.launch.end)
    }
}
