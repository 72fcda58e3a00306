import Foundation
import OpenIDConnect

/// A sign-in kiosk: visitor after visitor, each in a fresh ephemeral session.
///
/// ```swift
/// let kiosk = KioskStation(client: client, settings: KioskSettings(allowedHosts: ["login.microsoftonline.com"]))
/// while true {
///     let visitor = try await kiosk.nextVisitor()      // start screen, sign-in, back on abandonment
///     await checkIn(visitor.idToken)
/// }
/// ```
/// ``nextVisitor(script:)`` shows a full-screen start screen; the visitor's press opens the
/// provider's page in ``WebAuthenticationOptions/Presentation/kiosk(_:)`` (full screen, locked to
/// the provider's hosts and the ``KioskSettings/allowedHosts`` of its ``settings``). A visitor
/// who walks away (no input for ``KioskSettings/idleTimeout``, after a wrong password say: the
/// page then shows no redirect), presses Escape or the kiosk bar's "Start over" gets the "start
/// again" screen. What the kiosk shows around the page, and how it looks, is in its ``settings`` too. Each sign-in has its own in-memory cookie jar, storage
/// and cache, destroyed with its page: nothing of one visitor reaches the next.
@WebKitActor
public final class KioskStation {
    /// The client that signs visitors in.
    public let client: OpenIDConnectClient
    /// Where its pages may go, how long a visitor may stay idle, and what it shows around each
    /// sign-in page (the bar, the idle warning, the touch keyboard), in which language, at which
    /// text size, with which logo, title and colour (the start screen too). Default: everything shown.
    public var settings: KioskSettings
    /// The scopes each sign-in asks for.
    public var scopes: [String]
    /// Extra parameters of each sign-in's authorization request.
    public var additionalParameters: [String: String]
    /// What the start screen says first. Default: "Welcome. Sign in to continue." in the kiosk's
    /// language (``KioskSettings/language``).
    public var welcome: String {
        get { welcomeOverride ?? text.welcome }
        set { welcomeOverride = newValue }
    }
    /// What the start screen says after a reset (abandoned, Escape, Start over). Default: "The
    /// sign-in was reset and nothing of it was kept. Start again when you are ready." in the
    /// kiosk's language.
    public var startAgain: String {
        get { startAgainOverride ?? text.startAgain }
        set { startAgainOverride = newValue }
    }
    private var welcomeOverride: String?
    private var startAgainOverride: String?
    /// The kiosk's words in its language.
    var text: KioskText { KioskText(language: settings.language) }
    /// What the kiosk does, for its operator's log (and for tests).
    public enum Event: Sendable, Hashable {
        /// The start screen shows `message`.
        case startScreen(message: String)
        /// The start screen refused a close request (Alt+F4, the window manager's close button).
        case closeRefused
        /// A visitor pressed it; their sign-in page is open.
        case signInStarted
        /// The sign-in was reset: abandoned, Escape, or "Start over".
        case reset(WebAuthenticationError)
        /// A visitor signed in.
        case signedIn
        /// The phone screen (``nextPhoneVisitor(message:deviceAuthorizationEndpoint:)``) shows a new code.
        case phoneCodeShown(DeviceCode)
    }

    /// The kiosk's events, as they happen.
    public nonisolated let events: AsyncStream<Event>
    nonisolated let eventSink: AsyncStream<Event>.Continuation

    /// The start screen while it shows, and the wait for its button.
    private(set) var startScreen: KioskStartScreen?
    private var pendingPress: CheckedContinuation<Bool, Never>?

    /// A kiosk for `client`, set up with `settings`.
    public init(client: OpenIDConnectClient, settings: KioskSettings = KioskSettings(),
                scopes: [String] = ["openid", "profile"], additionalParameters: [String: String] = [:]) {
        self.client = client
        self.settings = settings
        self.scopes = scopes
        self.additionalParameters = additionalParameters
        (events, eventSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
    }

    /// Waits for the next visitor and signs them in; returns their completed sign-in.
    /// - Parameter script: a login script (tests of a kiosk deployment).
    /// - Throws: ``SignInError`` other than abandonment and Escape, which return to the start screen.
    public func nextVisitor(script: (@Sendable (WebAuthenticationSession) async throws -> Void)? = nil) async throws(SignInError) -> SignInResult {
        var message = welcome
        while true {
            try await waitForVisitor(message)
            var options = WebAuthenticationOptions()
            options.presentation = .kiosk(settings)
            options.websiteData = .ephemeral
            if let language = settings.language { options.languages = [language] }  // the provider's page speaks it too
            eventSink.yield(.signInStarted)
            do {
                let result = try await client.signIn(scopes: scopes, additionalParameters: additionalParameters, options: options, script: script)
                eventSink.yield(.signedIn)
                return result
            } catch .session(let reset) where reset == .closedByUser || reset == .abandoned(after: settings.idleTimeout) {
                eventSink.yield(.reset(reset))
                message = startAgain
            }
        }
    }

    /// Shows the start screen with `message` until it is pressed.
    private func waitForVisitor(_ message: String) async throws(SignInError) {
        do {
            startScreen = try KioskStartScreen(message: message, action: text.signIn, style: KioskStyle(settings),
                                               onPress: { [weak self] in self?.endWait(pressed: true) },
                                               onCloseRefused: { [weak self] in self?.eventSink.yield(.closeRefused) })
        } catch {
            throw .session(error)
        }
        eventSink.yield(.startScreen(message: message))
        let pressed = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled { continuation.resume(returning: false) } else { pendingPress = continuation }
            }
        } onCancel: {
            Task { @WebKitActor in self.endWait(pressed: false) }
        }
        closeStartScreen()
        guard pressed else { throw .session(.cancelled) }
    }

    private func endWait(pressed: Bool) {
        let waiting = pendingPress
        pendingPress = nil
        waiting?.resume(returning: pressed)
    }

    private func closeStartScreen() {
        startScreen?.close()
        startScreen = nil
    }
}
