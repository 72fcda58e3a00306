import ArgumentParser
import WebAuthCommandLine

/// How `webauth login` signs in (`--flow`). Without it: embedded when there is a display (or
/// `--headless`); with no display, the device grant when the provider has a device
/// authorization endpoint, else the system browser.
enum LoginFlow: String, ExpressibleByArgument, CaseIterable {
    /// The provider's page in the embedded WebKitGTK view: a window, or off screen with `--headless`.
    case embedded
    /// The person's browser, with the redirect to a loopback listener (RFC 8252).
    case browser
    /// The device authorization grant (RFC 8628): a code to enter on a phone or another computer.
    case device
}
