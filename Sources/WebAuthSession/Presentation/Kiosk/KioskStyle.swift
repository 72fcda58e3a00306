import Foundation
internal import CWebKitGTK

/// A kiosk's look (``KioskSettings``): large controls, the accent colour and the logo. The
/// style sheet is given to the kiosk's own widgets one by one, never to the whole screen, so a
/// host application's windows keep their look.
@WebKitActor
final class KioskStyle {
    private let provider: GObjectReference<UnsafeMutablePointer<GtkCssProvider>>
    private let logo: GObjectReference<OpaquePointer>?
    /// The deployment's name, if it has one.
    let title: String?

    /// The look `appearance` asks for.
    /// - Throws: ``WebAuthenticationError/invalidOption(_:)-swift.enum.case`` for an accent colour GTK cannot
    ///   read or a logo that is not a readable image.
    init(_ appearance: KioskSettings) throws(WebAuthenticationError) {
        title = appearance.title
        var css = Self.baseSheet
        if let accent = appearance.accentColor {
            var rgba = GdkRGBA()
            guard gdk_rgba_parse(&rgba, accent) != 0, let parsed = gdk_rgba_to_string(&rgba) else {
                throw .invalidOption(.kioskAccentColor(accent))
            }
            defer { g_free(parsed) }
            css += Self.accentSheet.replacingOccurrences(of: "ACCENT", with: String(cString: parsed))
        }
        let provider = GObjectReference(adopting: gtk_css_provider_new()!)
        self.provider = provider
        do {
            _ = try GLibError.attempt { gtk_css_provider_load_from_data(provider.pointer, css, -1, $0) }
        } catch {
            throw .invalidOption(.kioskStyleSheet(message: error.message))
        }
        if let path = appearance.logo?.path {
            let pixbuf: OpaquePointer?
            do {
                pixbuf = try GLibError.attempt { gdk_pixbuf_new_from_file_at_scale(path, -1, Self.logoHeight, 1, $0) }
            } catch {
                throw .invalidOption(.kioskLogo(path: path, message: error.message))
            }
            guard let pixbuf else { throw .invalidOption(.kioskLogo(path: path, message: nil)) }
            logo = GObjectReference(adopting: pixbuf)
        } else {
            logo = nil
        }
    }

    /// The logo's height on screen, in pixels.
    static let logoHeight: gint = 48

    /// Packs the deployment's branding into `box`, as the start screen and the bar show it: the
    /// logo, then the title (CSS class `kiosk-title`), each if there is one.
    func packBranding(into box: UnsafeMutablePointer<GtkWidget>) {
        if let image = logo?.withPointer({ gtk_image_new_from_pixbuf($0) }) {  // the image takes its own reference
            gtk_box_pack_start(cwk_box(box), image, 0, 0, 0)
        }
        if let title {
            let label = gtk_label_new(title)!
            Self.addClass("kiosk-title", to: label)
            gtk_box_pack_start(cwk_box(box), label, 0, 0, 0)
        }
    }

    /// Gives the style sheet to `widget` and every widget inside it, as they are now.
    func apply(to widget: UnsafeMutablePointer<GtkWidget>) {
        provider.withPointer { provider in
            Self.apply(UnsafeMutableRawPointer(provider), to: widget)
        }
    }

    private static func apply(_ provider: UnsafeMutableRawPointer, to widget: UnsafeMutablePointer<GtkWidget>) {
        gtk_style_context_add_provider(gtk_widget_get_style_context(widget), OpaquePointer(provider),
                                       guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        guard cwk_is_container(widget) != 0 else { return }
        gtk_container_forall(cwk_container(widget), { child, provider in
            guard let child, let provider else { return }
            WebKitActor.assumeIsolated { KioskStyle.apply(provider, to: child) }
        }, provider)
    }

    /// Adds the CSS class `name` to `widget`.
    static func addClass(_ name: String, to widget: UnsafeMutablePointer<GtkWidget>) {
        gtk_style_context_add_class(gtk_widget_get_style_context(widget), name)
    }

    private static let baseSheet = """
        .kiosk-bar { padding: 6px 12px; background-color: #f6f6f4; border-bottom: 1px solid #c8c8c4; }
        .kiosk-bar button, .kiosk-start button { font-size: 20px; min-height: 44px; min-width: 56px; padding: 4px 16px; }
        .kiosk-bar .kiosk-host { font-size: 18px; }
        .kiosk-title { font-size: 22px; font-weight: bold; }
        .kiosk-start .kiosk-title { font-size: 32px; }
        .kiosk-message { font-size: 24px; }
        .kiosk-warning { background-color: rgba(0, 0, 0, 0.55); }
        .kiosk-warning-card { background-color: #ffffff; border-radius: 12px; padding: 40px 56px; }
        .kiosk-warning-card label { font-size: 28px; }
        .kiosk-warning-card .kiosk-hint { font-size: 18px; color: #555555; }
        .kiosk-keyboard { background-color: #dcdcd8; padding: 8px; border-top: 1px solid #b0b0ac; }
        .kiosk-keyboard button { font-size: 22px; min-height: 52px; min-width: 52px; padding: 0; }

        """

    private static let accentSheet = """
        .kiosk-bar button, .kiosk-start button { background-image: none; background-color: ACCENT; color: #ffffff; border-color: ACCENT; }
        .kiosk-bar progressbar progress { background-image: none; background-color: ACCENT; border-color: ACCENT; }
        .kiosk-title { color: ACCENT; }

        """
}
