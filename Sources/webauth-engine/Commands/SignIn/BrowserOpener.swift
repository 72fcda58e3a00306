import Foundation
import WebAuthSession
import WebAuthCommandLine

/// The person's browser for `--flow browser`. It prints the URL on stderr when stderr is a
/// terminal or when no browser could be opened (over SSH, on a server), so the person can
/// always open it themselves; a browser that cannot be opened no longer ends the sign-in. The
/// URL carries the request's `state` and PKCE challenge, so it is not printed to a log that no
/// person reads while a browser is opening it.
enum BrowserOpener {
    /// Opens with `command` (the URL as its last argument), else the desktop's default.
    static func browser(command: String?) -> SystemBrowser {
        .custom { url in
            let opener: SystemBrowser = command.map { .command([$0]) } ?? .desktopDefault
            let atTerminal = isatty(STDERR_FILENO) == 1
            if atTerminal { instruct(url) }
            do throws(AuthorizationUserAgentError) { try await opener.open(url) } catch {
                if !atTerminal { instruct(url) }
                // Its reason alone: "could not be opened" is this line's to say.
                let reason = if case .browserUnavailable(let reason) = error { "\(reason)" } else { "\(error)" }
                write("No browser could be opened here (\(reason)); open the URL above yourself.")
            }
        }
    }

    /// The URL to open, and how to reach the loopback listener from another machine.
    private static func instruct(_ url: URL) {
        var lines = ["To sign in, open this URL in a browser:", "", "    " + url.absoluteString, ""]
        let redirect = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "redirect_uri" }?.value
        if let port = redirect.flatMap({ URLComponents(string: $0)?.port }) {
            lines.append("The provider sends you back to 127.0.0.1:\(port) on this machine; from a browser on another one, "
                         + "forward that port first (ssh -L \(port):127.0.0.1:\(port) THIS-HOST).")
        }
        write(lines.joined(separator: "\n"))
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
