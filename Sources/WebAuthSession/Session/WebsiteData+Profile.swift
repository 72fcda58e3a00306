import Foundation

extension WebAuthenticationOptions.WebsiteData {
    /// The provider's cookies of the saved sign-in (profile) `name`, kept between sessions so the
    /// provider can remember the person: `$XDG_DATA_HOME/webauthsession/profiles/NAME` (else
    /// `~/.local/share/…`). `webauth --profile NAME` and the broker's account `NAME` share it.
    public static func profile(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> Self {
        let base = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".local/share")
        return .persistent(profileDirectory: base.appendingPathComponent("webauthsession/profiles/\(name)"))
    }
}
