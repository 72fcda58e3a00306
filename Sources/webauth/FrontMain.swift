import Foundation
import WebAuthFront

/// `webauth`: what scripts, kubectl and git call most (`token`, `kubernetes-credential` with a
/// token that is still fresh, `--version`) is answered here, before any large library loads
/// (``TokenShortcut``); every other command line, this process hands to `webauth-tokens`, as it was
/// given, which runs the token commands and helpers without WebKitGTK and hands the rest to
/// `webauth-engine`. A person still has one `webauth` with the whole command tree.
@main
enum FrontMain {
    static func main() {
        let arguments = CommandLine.arguments
        if let answer = TokenShortcut.answer(arguments, environment: ProcessInfo.processInfo.environment) {
            print(answer)
            return
        }
        SiblingExecutable.replaceProcess("webauth-tokens", arguments: arguments)
    }
}
