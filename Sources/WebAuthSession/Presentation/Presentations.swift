internal import CWebKitGTK

/// The popup (``WindowPresentation``) and the kiosk (``KioskPresentation``), registered with the
/// page layer's ``PresentationMakers``: the page builds them without naming them.
enum Presentations {
    /// Registers the window's and the kiosk's makers. A session calls it before it makes its
    /// page; registering again changes nothing.
    @WebKitActor
    static func register() {
        PresentationMakers.shared.register(
            window: { view, width, height, parent throws(WebAuthenticationError) in
                try WindowPresentation(view: view, width: width, height: height, parent: parent)
            },
            kiosk: { settings throws(WebAuthenticationError) in
                let style = try KioskStyle(settings)
                return { view in KioskPresentation(view: view, settings: settings, style: style) }
            })
    }
}
