internal import CWebKitGTK

/// Who makes the popup and the kiosk around a page. Those presentations live above the page
/// (Presentation/) and register their makers here (``Presentations/register()``), so that
/// ``PageConstruction`` builds them without naming them. A headless page needs none: its
/// ``HeadlessPresentation`` is the page's own.
@WebKitActor
final class PresentationMakers {
    /// Puts a view in a new `width`×`height` window, transient for the parent window if any.
    typealias WindowMaker = @WebKitActor (UnsafeMutablePointer<WebKitWebView>, _ width: Int, _ height: Int, ParentWindow?)
        throws(WebAuthenticationError) -> any PagePresentation
    /// Checks a kiosk's settings (its style) before anything is made, and returns what puts a view in that kiosk.
    typealias KioskMaker = @WebKitActor (KioskSettings) throws(WebAuthenticationError)
        -> @WebKitActor (UnsafeMutablePointer<WebKitWebView>) -> any PagePresentation
    /// What puts a page's view in the presentation its options ask for.
    typealias Wrapping = @WebKitActor (UnsafeMutablePointer<WebKitWebView>) throws(WebAuthenticationError) -> any PagePresentation

    /// The makers of this process.
    static let shared = PresentationMakers()

    private var makers: (window: WindowMaker, kiosk: KioskMaker)?

    private init() {}

    /// Registers the makers of the window and the kiosk (again: the last ones count).
    func register(window: @escaping WindowMaker, kiosk: @escaping KioskMaker) {
        makers = (window, kiosk)
    }

    /// What puts a view in the presentation `options` ask for.
    /// - Throws: what the kiosk's maker throws for settings it cannot show
    ///   (``WebAuthenticationError/invalidOption(_:)-swift.enum.case``).
    func wrapping(for options: WebAuthenticationOptions) throws(WebAuthenticationError) -> Wrapping {
        switch options.presentation {
        case .headless:
            return { HeadlessPresentation(view: $0) }
        case .window(let width, let height):
            let (window, parent) = (registered.window, options.parentWindow)
            return { view throws(WebAuthenticationError) in try window(view, width, height, parent) }
        case .kiosk(let settings):
            let inKiosk = try registered.kiosk(settings)
            return { inKiosk($0) }
        }
    }

    private var registered: (window: WindowMaker, kiosk: KioskMaker) {
        guard let makers else { preconditionFailure("a session registers the presentations before it makes its page") }
        return makers
    }
}
