internal import CWebKitGTK

/// Where the page a person types into comes from: its host and whether its connection is
/// secure (a lock, or a crossed lock and "not encrypted"). The popup's header and the kiosk
/// bar each show one.
@WebKitActor
final class PageOrigin {
    /// How the connection of the page shown is presented.
    enum Security: Equatable {
        /// Nothing loaded yet.
        case unknown
        /// HTTPS with a valid certificate.
        case secure
        /// Plain HTTP: readable by anyone on the way (fine on loopback, shown anyway).
        case notEncrypted
    }

    /// The icon and the host, side by side.
    let box: UnsafeMutablePointer<GtkWidget>
    private let hostLabel: UnsafeMutablePointer<GtkWidget>
    private let securityIcon: UnsafeMutablePointer<GtkWidget>
    private let notEncryptedText: String
    private let iconSize: GtkIconSize
    /// What it shows now (for tests and accessibility checks).
    private(set) var host = ""
    private(set) var security = Security.unknown

    /// An empty origin; `notEncrypted` is the words after a plain-HTTP host, `iconSize` the lock's size.
    init(notEncrypted: String = "not encrypted", iconSize: GtkIconSize = GTK_ICON_SIZE_MENU) {
        (notEncryptedText, self.iconSize) = (notEncrypted, iconSize)
        securityIcon = gtk_image_new_from_icon_name("dialog-information-symbolic", iconSize)!
        AccessibleName.set(securityIcon, "Connection not known yet")
        hostLabel = gtk_label_new("")!
        box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4)!
        gtk_box_pack_start(cwk_box(box), securityIcon, 0, 0, 0)
        gtk_box_pack_start(cwk_box(box), hostLabel, 0, 0, 0)
    }

    /// The label that shows the host (to style it).
    var label: UnsafeMutablePointer<GtkWidget> { hostLabel }

    /// Shows the host of the page just committed and how its connection is protected. A page
    /// with a certificate error is never shown, so there is no "insecure TLS" state.
    func show(host: String, tls: TLSState) {
        self.host = host
        security = tls == .valid || tls == .validByCAFile ? .secure : .notEncrypted
        gtk_label_set_text(cwk_label(hostLabel), security == .secure ? host : "\(host) — \(notEncryptedText)")
        gtk_image_set_from_icon_name(cwk_image(securityIcon),
                                     security == .secure ? "channel-secure-symbolic" : "channel-insecure-symbolic", iconSize)
        let tooltip = switch tls {
        case .valid: "The connection is encrypted and the certificate is valid"
        case .validByCAFile: "The connection is encrypted and the certificate is valid: it comes from the CA file given for this sign-in"
        case .none, .invalid: "The connection is not encrypted"
        }
        gtk_widget_set_tooltip_text(securityIcon, tooltip)
        AccessibleName.set(securityIcon, security == .secure ? "Connection encrypted, certificate valid" : "Connection not encrypted",
                           description: tooltip)
    }
}
