import Foundation
import OpenIDConnect
internal import CWebKitGTK

/// The kiosk's "sign in with your phone" screen: full screen, a QR code of a device grant's
/// verification URI, and the URI and user code for a phone that does not scan. It refuses to be
/// closed; only ``close()`` removes it. ``show(_:)`` puts up a new code.
@WebKitActor
final class KioskPhoneScreen {
    /// Pixels per QR module.
    static let moduleSize = 8

    private var window: UnsafeMutablePointer<GtkWidget>?
    private let box: UnsafeMutablePointer<GtkWidget>
    private let instructions: UnsafeMutablePointer<GtkWidget>
    private var image: UnsafeMutablePointer<GtkWidget>?
    private var connections: [SignalConnection] = []
    /// The code on screen.
    private(set) var code: DeviceCode?

    /// Shows `message` above the code to come.
    init(message: String) throws(WebAuthenticationError) {
        try GTKEnvironment.ready(forPerson: true)
        let window = FullScreenWindow.make(title: "Sign in with your phone")
        box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 24)!
        gtk_widget_set_valign(box, GTK_ALIGN_CENTER)
        gtk_widget_set_halign(box, GTK_ALIGN_CENTER)
        let label = gtk_label_new(message)!
        gtk_label_set_line_wrap(cwk_label(label), 1)
        instructions = gtk_label_new("")!
        gtk_label_set_selectable(cwk_label(instructions), 0)
        gtk_box_pack_start(cwk_box(box), label, 0, 0, 0)
        gtk_box_pack_end(cwk_box(box), instructions, 0, 0, 0)
        gtk_container_add(cwk_container(window), box)
        // As the start screen: Alt+F4 or the window manager's close keeps it.
        connections = [SignalConnection(window, .deleteEvent, handler: Self.keepOpen), KioskLockdown.keepInspectorShut(window)]
        self.window = window
        gtk_widget_show_all(window)
    }

    private nonisolated static let keepOpen: CWKDeleteEventHandler = { _, _, _ in 1 }

    /// Puts up `code`: its QR code, its verification URI and its user code.
    func show(_ code: DeviceCode) {
        self.code = code
        if let image { gtk_widget_destroy(image) }
        image = QRCode(code.uriForQRCode.absoluteString).map(Self.image(of:))
        if let image {
            gtk_box_pack_start(cwk_box(box), image, 0, 0, 0)
            gtk_widget_show(image)
        }
        gtk_label_set_text(cwk_label(instructions),
                           "Scan the code with your phone, or open \(code.verificationURI.absoluteString) and enter \(code.userCode)")
    }

    /// A `GtkImage` of `qr`, dark on white, with a quiet zone of 4 modules.
    private static func image(of qr: QRCode) -> UnsafeMutablePointer<GtkWidget> {
        let quiet = 4
        let side = (qr.size + 2 * quiet) * moduleSize
        let pixbufReference = GObjectReference(adopting: gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, gint(side), gint(side))!)
        let pixbuf = pixbufReference.pointer
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let pixels = gdk_pixbuf_get_pixels(pixbuf)!
        for y in 0..<side {
            for x in 0..<side {
                let dark = qr.isDark(row: y / moduleSize - quiet, column: x / moduleSize - quiet)
                let offset = y * stride + x * 3
                for channel in 0..<3 { pixels[offset + channel] = dark ? 0 : 255 }
            }
        }
        return withExtendedLifetime(pixbufReference) { gtk_image_new_from_pixbuf(pixbuf)! }  // the image takes its own reference
    }

    /// Destroys the window; idempotent.
    func close() {
        connections.forEach { $0.disconnect() }
        if let window { gtk_widget_destroy(window) }
        (window, image, code, connections) = (nil, nil, nil, [])
    }
}
