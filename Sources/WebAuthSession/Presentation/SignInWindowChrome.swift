internal import CWebKitGTK

/// The frame of a sign-in window that a person can trust: a header bar with the page's title,
/// the host they are typing into and whether its connection is secure (a lock, or a warning),
/// a Cancel button, and a thin load-progress bar above the page.
@WebKitActor
final class SignInWindowChrome {
    /// The box that holds the progress bar and then the page.
    let content: UnsafeMutablePointer<GtkWidget>
    /// The Cancel button (it ends the sign-in as if the window were closed).
    let cancelButton: UnsafeMutablePointer<GtkWidget>
    private let titleLabel: UnsafeMutablePointer<GtkWidget>
    private let origin: PageOrigin
    private let progressBar: UnsafeMutablePointer<GtkWidget>
    /// What the header shows now (for tests and accessibility checks).
    private(set) var title = "Sign in"
    var host: String { origin.host }
    var security: PageOrigin.Security { origin.security }

    /// Builds the chrome into `window` and returns it; the page goes into ``content``.
    init(window: UnsafeMutablePointer<GtkWidget>) {
        let header = gtk_header_bar_new()!
        gtk_header_bar_set_show_close_button(cwk_header_bar(header), 0)
        cancelButton = gtk_button_new_with_mnemonic("_Cancel")!
        gtk_header_bar_pack_start(cwk_header_bar(header), cancelButton)
        AccessibleName.set(cancelButton, "Cancel", description: "Ends the sign-in and closes this window")

        titleLabel = gtk_label_new("Sign in")!
        gtk_label_set_ellipsize(cwk_label(titleLabel), PANGO_ELLIPSIZE_END)
        gtk_style_context_add_class(gtk_widget_get_style_context(titleLabel), "title")
        origin = PageOrigin()
        gtk_style_context_add_class(gtk_widget_get_style_context(origin.label), "subtitle")
        gtk_widget_set_halign(origin.box, GTK_ALIGN_CENTER)
        let titles = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_set_valign(titles, GTK_ALIGN_CENTER)
        gtk_box_pack_start(cwk_box(titles), titleLabel, 0, 0, 0)
        gtk_box_pack_start(cwk_box(titles), origin.box, 0, 0, 0)
        gtk_header_bar_set_custom_title(cwk_header_bar(header), titles)
        gtk_window_set_titlebar(cwk_window(window), header)
        gtk_window_set_title(cwk_window(window), title)  // what window lists and task bars show, before any page has a title

        content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        progressBar = gtk_progress_bar_new()!
        gtk_widget_set_no_show_all(progressBar, 1)
        gtk_box_pack_start(cwk_box(content), progressBar, 0, 0, 0)
        gtk_container_add(cwk_container(window), content)
    }

    /// Shows the page's title (in the header and the window's own title).
    func show(title: String, in window: UnsafeMutablePointer<GtkWidget>) {
        self.title = title.isEmpty ? "Sign in" : title
        gtk_label_set_text(cwk_label(titleLabel), self.title)
        gtk_window_set_title(cwk_window(window), self.title)
    }

    /// Shows the host of the page just committed and how its connection is protected.
    func show(host: String, tls: TLSState) {
        origin.show(host: host, tls: tls)
    }

    /// Shows load progress from 0 to 1; hidden when the page has loaded.
    func show(progress: Double) {
        gtk_progress_bar_set_fraction(cwk_progress_bar(progressBar), progress)
        if progress >= 1 { gtk_widget_hide(progressBar) } else { gtk_widget_show(progressBar) }
    }

    /// Whether the progress bar is showing.
    var isShowingProgress: Bool { gtk_widget_get_visible(progressBar) != 0 }
}
