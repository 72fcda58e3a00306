import CGTK
import Foundation
import OpenIDConnect
import WebAuthSession

/// The application's window: a line that says who is signed in, and a "Sign in" button. The
/// sign-in page opens in a popup transient for this window and modal to it
/// (``WebAuthenticationOptions/parentWindow``), so the person cannot click the window behind it.
/// Each outcome is also written to stdout, one line, for a script that runs the example.
@WebKitActor
final class SignInWindow {
    private let settings: Settings
    private let window: UnsafeMutablePointer<GtkWidget>
    private let status: UnsafeMutablePointer<GtkWidget>
    private let button: UnsafeMutablePointer<GtkWidget>

    init(settings: Settings) {
        self.settings = settings
        window = gtk_window_new(GTK_WINDOW_TOPLEVEL)
        status = gtk_label_new("Not signed in.")
        button = gtk_button_new_with_label("Sign in")
        gtk_window_set_title(cgtk_window(window), "Sign-in example")
        gtk_window_set_default_size(cgtk_window(window), 420, 160)
        gtk_container_set_border_width(cgtk_container(window), 24)
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 16)!
        gtk_box_pack_start(cgtk_box(box), status, 1, 1, 0)
        gtk_box_pack_start(cgtk_box(box), button, 0, 0, 0)
        gtk_container_add(cgtk_container(window), box)

        // Closing the window ends the application.
        cgtk_on_destroy(window) { _, _ in gtk_main_quit() }
        // The button's handler holds this object; GLib releases it with the button.
        cgtk_on_clicked(button, { _, data in
            let window = Unmanaged<SignInWindow>.fromOpaque(data!).takeUnretainedValue()
            Task { @WebKitActor in await window.signIn() }
        }, Unmanaged.passRetained(self).toOpaque(), { data, _ in
            Unmanaged<SignInWindow>.fromOpaque(data!).release()
        })
    }

    /// Shows the window, the button ready for the Enter or space key.
    func show() {
        gtk_widget_show_all(window)
        gtk_widget_grab_focus(button)
    }

    /// Signs in through the popup, then shows who signed in.
    func signIn() async {
        gtk_widget_set_sensitive(button, 0)
        show("Signing in…")
        var options = WebAuthenticationOptions()
        options.parentWindow = ParentWindow(gtkWindow: UnsafeMutableRawPointer(window))
        let outcome = await Self.outcome(of: settings, options: options)
        gtk_widget_set_sensitive(button, 1)
        show(outcome)
    }

    /// Signs in with `options` and says how it went: the person's name from the provider's UserInfo
    /// endpoint (an ID token need not carry it), else the ID token's subject; or why it did not.
    private static func outcome(of settings: Settings, options: WebAuthenticationOptions) async -> String {
        do {
            let result = try await settings.client.signIn(scopes: ["openid", "profile", "email"], options: options,
                                                          script: settings.script?.runner())
            // result.authState is what an application keeps (see "Staying signed in" in README.md).
            let claims = try await AuthStateManager(state: result.authState, http: URLSessionHTTPClient()).userinfo()
            return "Signed in as \(claims["name"]?.stringValue ?? result.idToken.subject)"
        } catch let error as SignInError where error.isUserCancellation {
            return "Sign-in cancelled."
        } catch {
            return "Sign-in failed: \(error)"
        }
    }

    /// Puts `text` in the window and on stdout.
    private func show(_ text: String) {
        gtk_label_set_text(cgtk_label(status), text)
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
