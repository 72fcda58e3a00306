import Foundation
import WebAuthFront

/// `webauth`: what scripts, kubectl, git and Docker call most (`token`, `kubernetes-credential`, the
/// git and Docker helpers' `get` with a token that is still fresh, `--version`) is answered here,
/// before any large library loads (``TokenShortcut``). Every other command line this process hands
/// as it was given (stdin too) to `webauth-tokens`, which runs the token commands and helpers
/// without WebKitGTK and hands a `login` to a running broker, or for any other command straight
/// to `webauth-engine` (``CommandRoute``), with the private Xvfb a headless `login` with no display
/// will need already starting (``HeadlessLoginDisplay``). A person still has one `webauth` with the
/// whole command tree.
@main
enum FrontMain {
    static func main() {
        let arguments = CommandLine.arguments
        let environment = ProcessInfo.processInfo.environment
        switch TokenShortcut.answer(arguments, environment: environment) {
        case .answered(let output): print(output)
        case .handOver(let input):
            let executable = CommandRoute.executable(for: arguments, environment: environment)
            let display = executable == "webauth-engine" ? HeadlessLoginDisplay.start(for: arguments, environment: environment) : nil
            SiblingExecutable.replaceProcess(executable, arguments: arguments, environment: display?.environment, standardInput: input,
                                             undo: display?.abandon ?? {})
        }
    }
}
