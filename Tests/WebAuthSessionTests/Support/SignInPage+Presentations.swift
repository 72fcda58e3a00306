@testable import WebAuthSession

/// The presentation's parts the tests look at and click.
extension SignInPage {
    /// A window presentation's header bar, progress bar and Cancel button.
    var chrome: SignInWindowChrome? { (presentation as? WindowPresentation)?.chrome }
    /// A kiosk presentation's bar, idle warning and touch keyboard.
    var kioskFrame: KioskFrame? { (presentation as? KioskPresentation)?.frame }
}
