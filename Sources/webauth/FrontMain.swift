import Foundation
import WebAuthFront

/// `webauth`: what scripts, kubectl, git and Docker call most (`token`, `kubernetes-credential`, the
/// git and Docker helpers' `get` with a token that is still fresh, `--version`) is answered here,
/// before any large library loads
/// (``TokenShortcut``); every other command line, this process hands to `webauth-tokens` as it was
/// given (stdin too), which runs the token commands and helpers without WebKitGTK and hands the rest to
/// `webauth-engine`. A person still has one `webauth` with the whole command tree.
@main
enum FrontMain {
    static func main() {
        let arguments = CommandLine.arguments
        switch TokenShortcut.answer(arguments, environment: ProcessInfo.processInfo.environment) {
        case .answered(let output): print(output)
        case .handOver(let input): SiblingExecutable.replaceProcess("webauth-tokens", arguments: arguments, standardInput: input)
        }
    }
}
