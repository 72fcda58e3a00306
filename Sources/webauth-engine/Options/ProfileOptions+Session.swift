import Foundation
import WebAuthCommandLine
import WebAuthSession

/// What a profile's options say about the engine's session: where its website data lives, and its options.
extension ProfileOptions {
    /// Where website data lives for a session.
    func websiteData(environment: [String: String] = CommandEnvironment.original) -> WebAuthenticationOptions.WebsiteData {
        guard let profile = chosenProfile(environment), !ephemeral else { return .ephemeral }
        return .profile(profile, environment: environment)
    }
}

/// The engine's session options for a command's presentation choices.
extension PresentationOptions {
    /// Session options with these choices and `websiteData`; the page may take what is left of `deadline`.
    func sessionOptions(websiteData: WebAuthenticationOptions.WebsiteData, within deadline: CommandDeadline) -> WebAuthenticationOptions {
        var options = WebAuthenticationOptions()
        options.presentation = headless ? .headless : .window()
        // A person at the popup may answer a page's passkey request with a USB security key.
        if !headless { options.securityKeys = .system }
        options.timeout = max(deadline.remaining, .milliseconds(1))
        options.websiteData = websiteData
        return options
    }
}
