/*
 * CWebKitGTK: the C surface WebAuthSession needs from WebKitGTK 4.1, GTK 3,
 * GLib/GObject and libsoup 3, found through pkg-config `webkit2gtk-4.1`.
 *
 * Swift imports plain C functions directly. It cannot see C macros
 * (G_OBJECT(), WEBKIT_WEB_VIEW(), g_signal_connect(), ...) nor call C variadic
 * functions (g_object_new(), soup_server_new(), ...). Each `static inline`
 * below exists for exactly one of those two reasons and says which. Every
 * symbol carries the `cwk_` prefix. This module is imported `internal` only:
 * no C type crosses the public Swift API.
 *
 * This header belongs to the engine's GObject layer (Sources/WebAuthSession/GObject/ and the
 * GLib kit below it, Sources/GLibKit/): only those connect signals (the `cwk_connect_*`
 * helpers), take and drop references and free GErrors; everything else goes through their
 * Swift types (GObjectReference, SignalConnection, RetainedBox, GLibError). What needs no
 * WebKit and no GTK (GObject casts, the main context, libsoup's and GIO's signals, TLS) is in
 * CSoup/CSoup.h, which this header includes: the light `webauth` links that alone.
 */
#ifndef CWEBKITGTK_H
#define CWEBKITGTK_H

#include <gtk/gtk.h>
#include <webkit2/webkit2.h>
#include <libsoup/soup.h>
#include <jsc/jsc.h>
#include "CSoup/CSoup.h"  /* GObject casts, signal connection, the main context, libsoup, TLS */

/* ---- Checked casts (GObject cast macros) ------------------------------ */


/** WEBKIT_WEB_VIEW(): a GtkWidget known to be a web view. */
static inline WebKitWebView *cwk_web_view(GtkWidget *widget) { return WEBKIT_WEB_VIEW(widget); }

/** WEBKIT_WEB_VIEW(): the source object of a web view's GAsyncReadyCallback. */
static inline WebKitWebView *cwk_web_view_from_object(GObject *object) { return WEBKIT_WEB_VIEW(object); }

/** GTK_WIDGET(): a web view as the widget it is. */
static inline GtkWidget *cwk_web_view_widget(WebKitWebView *view) { return GTK_WIDGET(view); }

/** GTK_WINDOW(): a widget known to be a window. */
static inline GtkWindow *cwk_window(GtkWidget *widget) { return GTK_WINDOW(widget); }

/** GTK_CONTAINER(): a widget known to be a container. */
static inline GtkContainer *cwk_container(GtkWidget *widget) { return GTK_CONTAINER(widget); }

/** GTK_HEADER_BAR(), GTK_BOX(), GTK_LABEL(), GTK_PROGRESS_BAR(), GTK_BUTTON(): the sign-in window's chrome. */
static inline GtkHeaderBar *cwk_header_bar(GtkWidget *widget) { return GTK_HEADER_BAR(widget); }
static inline GtkBox *cwk_box(GtkWidget *widget) { return GTK_BOX(widget); }
static inline GtkLabel *cwk_label(GtkWidget *widget) { return GTK_LABEL(widget); }
static inline GtkProgressBar *cwk_progress_bar(GtkWidget *widget) { return GTK_PROGRESS_BAR(widget); }
static inline GtkButton *cwk_button(GtkWidget *widget) { return GTK_BUTTON(widget); }
static inline GtkImage *cwk_image(GtkWidget *widget) { return GTK_IMAGE(widget); }

/** GTK_IS_WINDOW(): whether a pointer handed in by a host application is a GtkWindow. */
static inline gboolean cwk_is_window(gpointer instance) { return instance != NULL && GTK_IS_WINDOW(instance); }

/** WEBKIT_NAVIGATION_POLICY_DECISION(): the navigation kinds of policy decision. */
static inline WebKitNavigationPolicyDecision *cwk_navigation_decision(WebKitPolicyDecision *decision) {
    return WEBKIT_NAVIGATION_POLICY_DECISION(decision);
}

/** WEBKIT_RESPONSE_POLICY_DECISION(): the response kind of policy decision. */
static inline WebKitResponsePolicyDecision *cwk_response_decision(WebKitPolicyDecision *decision) {
    return WEBKIT_RESPONSE_POLICY_DECISION(decision);
}

/* ---- Variadic constructors -------------------------------------------- */

/** g_object_new() with properties: a web view in `context`; `ephemeral` gives it its own
 *  in-memory website data (cookie jar, storage, cache) that dies with the view. */
static inline WebKitWebView *cwk_web_view_new(WebKitWebContext *context, gboolean ephemeral) {
    return WEBKIT_WEB_VIEW(g_object_new(WEBKIT_TYPE_WEB_VIEW,
                                        "web-context", context,
                                        "is-ephemeral", ephemeral,
                                        NULL));
}

/** webkit_website_data_manager_new(): website data kept under one profile directory. */
static inline WebKitWebsiteDataManager *cwk_website_data_manager_new(const char *data_directory,
                                                                     const char *cache_directory) {
    return webkit_website_data_manager_new("base-data-directory", data_directory,
                                           "base-cache-directory", cache_directory,
                                           NULL);
}

/** soup_server_new(): an HTTP server with no options but its Server header. */
static inline SoupServer *cwk_soup_server_new(void) {
    return soup_server_new("server-header", "WebAuthSession", NULL);
}

/* ---- Signals (g_signal_connect is a macro; typed wrappers let the compiler
 *      check each handler's signature against the signal's) ---------------- */


/** WebKitWebView::decide-policy */
typedef gboolean (*CWKDecidePolicyHandler)(WebKitWebView *, WebKitPolicyDecision *, WebKitPolicyDecisionType, gpointer);
static inline gulong cwk_connect_decide_policy(WebKitWebView *view, CWKDecidePolicyHandler handler,
                                               gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(view, "decide-policy", handler, data, destroy);
}

/** WebKitWebView::load-changed */
typedef void (*CWKLoadChangedHandler)(WebKitWebView *, WebKitLoadEvent, gpointer);
static inline gulong cwk_connect_load_changed(WebKitWebView *view, CWKLoadChangedHandler handler,
                                              gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(view, "load-changed", handler, data, destroy);
}

/** WebKitWebView::load-failed */
typedef gboolean (*CWKLoadFailedHandler)(WebKitWebView *, WebKitLoadEvent, gchar *, GError *, gpointer);
static inline gulong cwk_connect_load_failed(WebKitWebView *view, CWKLoadFailedHandler handler,
                                             gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(view, "load-failed", handler, data, destroy);
}

/** WebKitWebView::load-failed-with-tls-errors */
typedef gboolean (*CWKTLSErrorHandler)(WebKitWebView *, gchar *, GTlsCertificate *, GTlsCertificateFlags, gpointer);
static inline gulong cwk_connect_load_failed_with_tls_errors(WebKitWebView *view, CWKTLSErrorHandler handler,
                                                             gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(view, "load-failed-with-tls-errors", handler, data, destroy);
}

/** WebKitWebView::web-process-terminated */
typedef void (*CWKProcessTerminatedHandler)(WebKitWebView *, WebKitWebProcessTerminationReason, gpointer);
static inline gulong cwk_connect_web_process_terminated(WebKitWebView *view, CWKProcessTerminatedHandler handler,
                                                        gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(view, "web-process-terminated", handler, data, destroy);
}

/** WebKitWebView::create (window.open, target=_blank); returning NULL refuses the window. */
typedef GtkWidget *(*CWKCreateHandler)(WebKitWebView *, WebKitNavigationAction *, gpointer);
static inline gulong cwk_connect_create(WebKitWebView *view, CWKCreateHandler handler,
                                        gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(view, "create", handler, data, destroy);
}

/** WebKitWebView::close (the page called window.close()). */
typedef void (*CWKViewCloseHandler)(WebKitWebView *, gpointer);
static inline gulong cwk_connect_view_close(WebKitWebView *view, CWKViewCloseHandler handler,
                                            gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(view, "close", handler, data, destroy);
}

/** GObject::notify::PROPERTY, e.g. "notify::title". */
typedef void (*CWKNotifyHandler)(GObject *, GParamSpec *, gpointer);
static inline gulong cwk_connect_notify(gpointer instance, const char *detailed_signal, CWKNotifyHandler handler,
                                        gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(instance, detailed_signal, handler, data, destroy);
}

/** GtkWidget::delete-event (the person closed the window). */
typedef gboolean (*CWKDeleteEventHandler)(GtkWidget *, GdkEvent *, gpointer);
static inline gulong cwk_connect_delete_event(GtkWidget *window, CWKDeleteEventHandler handler,
                                              gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(window, "delete-event", handler, data, destroy);
}

/** GtkWidget::key-press-event (Escape cancels the sign-in). */
typedef gboolean (*CWKKeyPressHandler)(GtkWidget *, GdkEventKey *, gpointer);
static inline gulong cwk_connect_key_press(GtkWidget *widget, CWKKeyPressHandler handler,
                                           gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(widget, "key-press-event", handler, data, destroy);
}

/** GtkWidget::draw (GTK paints the widget; a handler that returns TRUE paints in its place). */
typedef gboolean (*CWKDrawHandler)(GtkWidget *, cairo_t *, gpointer);
static inline gulong cwk_connect_draw(GtkWidget *widget, CWKDrawHandler handler,
                                      gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(widget, "draw", handler, data, destroy);
}

/** GtkButton::clicked. */
typedef void (*CWKClickedHandler)(GtkButton *, gpointer);
static inline gulong cwk_connect_clicked(GtkWidget *button, CWKClickedHandler handler,
                                         gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(button, "clicked", handler, data, destroy);
}

/** WebKitWebView::context-menu (return TRUE: no menu) and ::run-file-chooser (TRUE: no chooser).
 *  The GTK 3 API's context-menu passes the GdkEvent that asked for the menu. */
typedef gboolean (*CWKContextMenuHandler)(WebKitWebView *, WebKitContextMenu *, GdkEvent *, WebKitHitTestResult *, gpointer);
static inline gulong cwk_connect_context_menu(WebKitWebView *view, CWKContextMenuHandler handler,
                                              gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(view, "context-menu", handler, data, destroy);
}
typedef gboolean (*CWKFileChooserHandler)(WebKitWebView *, WebKitFileChooserRequest *, gpointer);
static inline gulong cwk_connect_run_file_chooser(WebKitWebView *view, CWKFileChooserHandler handler,
                                                  gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(view, "run-file-chooser", handler, data, destroy);
}

/** GtkWidget::button-press-event, ::motion-notify-event and friends: any input (a kiosk's idle timer). */
typedef gboolean (*CWKInputEventHandler)(GtkWidget *, GdkEvent *, gpointer);
static inline gulong cwk_connect_input_event(GtkWidget *widget, const char *signal, CWKInputEventHandler handler,
                                             gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(widget, signal, handler, data, destroy);
}

/** The keyval of a key event. */
static inline guint cwk_event_key_keyval(GdkEventKey *event) { return event->keyval; }

/* ---- Main context ----------------------------------------------------- */


/* ---- Downloads and printing: a sign-in does neither ------------------------ */

/** WebKitWebContext::download-started: every download of the context's views, whatever
 *  started it (a `download` link, a response WebKit saves), passes here first. */
typedef void (*CWKDownloadStartedHandler)(WebKitWebContext *, WebKitDownload *, gpointer);
static inline gulong cwk_connect_download_started(WebKitWebContext *context, CWKDownloadStartedHandler handler,
                                                  gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(context, "download-started", handler, data, destroy);
}

/** WebKitWebView::print (window.print()); returning TRUE stops it: no print dialog. */
typedef gboolean (*CWKPrintHandler)(WebKitWebView *, WebKitPrintOperation *, gpointer);
static inline gulong cwk_connect_print(WebKitWebView *view, CWKPrintHandler handler,
                                       gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(view, "print", handler, data, destroy);
}

/* ---- The GObject layer -------------------------------------- */

/** GtkWidget::destroy (GTK destroys the widget: its own teardown, or a parent destroyed
 *  with `destroy-with-parent`). */
typedef void (*CWKDestroyHandler)(GtkWidget *, gpointer);
static inline gulong cwk_connect_destroy(GtkWidget *widget, CWKDestroyHandler handler,
                                         gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(widget, "destroy", handler, data, destroy);
}

/* ---- Trusted key input (PageKeyboard) ------------------------ */

/** A key press or release as a keyboard makes it, for PageKeyboard: gdk_event_new() on the
 *  widget's window with `keyval`, the hardware keycode and group of the key that carries it
 *  on the keymap (Shift held when it sits on the shifted level; 0 when no key carries it), the
 *  seat's keyboard as device (none on a Wayland display without a seat), then
 *  gtk_main_do_event(): the path of a real key (its toplevel, then the toplevel's focus
 *  widget). GdkEventKey has no setters, hence C; the event owns a reference to its window
 *  until gdk_event_free(). Returns FALSE, sending nothing, when the widget has no window. */
static inline gboolean cwk_send_key_event(GtkWidget *widget, gboolean press, guint keyval) {
    GdkWindow *window = gtk_widget_get_window(widget);
    if (window == NULL) return FALSE;
    GdkDisplay *display = gdk_window_get_display(window);
    GdkEvent *event = gdk_event_new(press ? GDK_KEY_PRESS : GDK_KEY_RELEASE);
    event->key.window = g_object_ref(window);
    event->key.time = GDK_CURRENT_TIME;
    event->key.keyval = keyval;
    GdkKeymapKey *keys = NULL;
    gint count = 0;
    if (gdk_keymap_get_entries_for_keyval(gdk_keymap_get_for_display(display), keyval, &keys, &count) && count > 0) {
        event->key.hardware_keycode = (guint16)keys[0].keycode;
        event->key.group = (guint8)keys[0].group;
        if (keys[0].level == 1) event->key.state = GDK_SHIFT_MASK;
    }
    g_free(keys);
    GdkSeat *seat = gdk_display_get_default_seat(display);
    GdkDevice *keyboard = seat != NULL ? gdk_seat_get_keyboard(seat) : NULL;
    if (keyboard != NULL) gdk_event_set_device(event, keyboard);
    gtk_main_do_event(event);
    gdk_event_free(event);
    return TRUE;
}

/* ---- Passkey prompts named, not timed out --------------------- */

/** WebKitUserContentManager::script-message-received::NAME (a page script called
 *  `window.webkit.messageHandlers.NAME.postMessage(value)`). The signal's detail is built
 *  here: Swift cannot call g_signal_connect's macro. */
typedef void (*CWKScriptMessageHandler)(WebKitUserContentManager *, WebKitJavascriptResult *, gpointer);
static inline gulong cwk_connect_detailed(gpointer instance, const char *signal, const char *detail, GCallback handler,
                                          gpointer data, GClosureNotify destroy) {
    gchar *detailed = g_strconcat(signal, "::", detail, NULL);
    gulong id = CWK_CONNECT(instance, detailed, handler, data, destroy);
    g_free(detailed);
    return id;
}
static inline gulong cwk_connect_script_message_received(WebKitUserContentManager *manager, const char *name,
                                                         CWKScriptMessageHandler handler,
                                                         gpointer data, GClosureNotify destroy) {
    return cwk_connect_detailed(manager, "script-message-received", name, G_CALLBACK(handler), data, destroy);
}

/* ---- WebAuthn requests answered ---------------------------------- */

/** WebKitUserContentManager::script-message-with-reply-received::NAME (WebKitGTK 2.40): the
 *  page's `postMessage` returns a promise the handler settles through the reply. Returning TRUE
 *  with a reference on the reply answers it later. The detail is built here, as above. */
typedef gboolean (*CWKScriptMessageWithReplyHandler)(WebKitUserContentManager *, JSCValue *, WebKitScriptMessageReply *, gpointer);
static inline gulong cwk_connect_script_message_with_reply_received(WebKitUserContentManager *manager, const char *name,
                                                                    CWKScriptMessageWithReplyHandler handler,
                                                                    gpointer data, GClosureNotify destroy) {
    return cwk_connect_detailed(manager, "script-message-with-reply-received", name, G_CALLBACK(handler), data, destroy);
}

/** GTK_ENTRY(), GTK_SPINNER(): the security key dialog's PIN field and its "waiting" spinner. */
static inline GtkEntry *cwk_entry(GtkWidget *widget) { return GTK_ENTRY(widget); }
static inline GtkSpinner *cwk_spinner(GtkWidget *widget) { return GTK_SPINNER(widget); }

/* ---- Proxy and private CA ------------------------------ */

/** WebKitWebView::authenticate (HTTP or proxy authentication); returning TRUE means the
 *  handler answers the request (authenticate or cancel). */
typedef gboolean (*CWKAuthenticateHandler)(WebKitWebView *, WebKitAuthenticationRequest *, gpointer);
static inline gulong cwk_connect_authenticate(WebKitWebView *view, CWKAuthenticateHandler handler,
                                              gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(view, "authenticate", handler, data, destroy);
}

/** WebKitWebView::resource-load-started (every request of the page, subresources too, as it starts). */
typedef void (*CWKResourceLoadStartedHandler)(WebKitWebView *, WebKitWebResource *, WebKitURIRequest *, gpointer);
static inline gulong cwk_connect_resource_load_started(WebKitWebView *view, CWKResourceLoadStartedHandler handler,
                                                       gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(view, "resource-load-started", handler, data, destroy);
}

/** WebKitWebResource::sent-request (its request went out: once, then once per redirect with the
 *  response that redirected it, NULL for the first). The new request's URI arrives with the
 *  userinfo of the redirect's Location taken out: only that response's headers show it. */
typedef void (*CWKSentRequestHandler)(WebKitWebResource *, WebKitURIRequest *, WebKitURIResponse *, gpointer);
static inline gulong cwk_connect_sent_request(WebKitWebResource *resource, CWKSentRequestHandler handler,
                                              gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(resource, "sent-request", handler, data, destroy);
}



/* ---- The kiosk a visitor can use ------------------------------ */

/** GTK_IS_CONTAINER(): whether a widget has children (the kiosk's style goes to each). */
static inline gboolean cwk_is_container(GtkWidget *widget) { return GTK_IS_CONTAINER(widget); }

/** GTK_OVERLAY(): the kiosk window's layers (the page, then the idle warning over it). */
static inline GtkOverlay *cwk_overlay(GtkWidget *widget) { return GTK_OVERLAY(widget); }

/* ---- Wayland --------------------------------------------------- */

/** GTK_BIN(): a window's one child (its content, without the header bar). */
static inline GtkBin *cwk_bin(GtkWidget *widget) { return GTK_BIN(widget); }

/* ---- Client certificates (mutual TLS, smart cards) ------------ */





/** The scheme ("http", "https") of the server asking for authentication, copied into `buffer`
 *  (empty when WebKit gives none): the request's security origin is a boxed type whose reference
 *  this releases at once, so no Swift code holds it. */
static inline void cwk_authentication_request_scheme(WebKitAuthenticationRequest *request, char *buffer, size_t size) {
    buffer[0] = 0;
    WebKitSecurityOrigin *origin = webkit_authentication_request_get_security_origin(request);
    if (!origin) return;
    const char *scheme = webkit_security_origin_get_protocol(origin);
    if (scheme) g_strlcpy(buffer, scheme, size);
    webkit_security_origin_unref(origin);
}

/* ---- Nothing of one kiosk visitor for the next ------------------ */

/** GDK_SELECTION_CLIPBOARD and GDK_SELECTION_PRIMARY are macros (_GDK_MAKE_ATOM): takes both
 * selections with empty text on an X11 display, so what a visitor copied or selected cannot be pasted by the next;
 * then waits for the display server to have it (gdk_display_sync). */
static inline void cwk_clear_clipboard_and_primary(void) {
    GdkDisplay *display = gdk_display_get_default();
    /* X11 only: on Wayland, GDK 3 crashes taking a selection for a window that has no keyboard
     * focus (gtk_selection_add_targets, seen on headless weston), and the compositor hands the
     * clipboard only to the focused client anyway. */
    if (!display || g_strcmp0(G_OBJECT_TYPE_NAME(display), "GdkX11Display") != 0) return;  /* gdkx.h would bring Xlib's headers */
    gtk_clipboard_set_text(gtk_clipboard_get(GDK_SELECTION_CLIPBOARD), "", 0);
    gtk_clipboard_set_text(gtk_clipboard_get(GDK_SELECTION_PRIMARY), "", 0);
    gdk_display_sync(display);  /* the server knows the new owner before anyone asks */
}

/** G_OBJECT_TYPE_NAME(): the class of a toplevel (the inspector's is GtkInspectorWindow). */
static inline const char *cwk_object_type_name(gpointer instance) { return G_OBJECT_TYPE_NAME(instance); }

/** GtkWindow::enable-debugging (the keybinding signal of Ctrl+Shift+I and Ctrl+Shift+D, which
 * opens the GTK Inspector); a handler that stops the emission keeps the inspector shut. */
typedef gboolean (*CWKEnableDebuggingHandler)(GtkWindow *, gboolean, gpointer);
static inline gulong cwk_connect_enable_debugging(GtkWidget *window, CWKEnableDebuggingHandler handler,
                                                  gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(window, "enable-debugging", handler, data, destroy);
}

/* ---- A window of another program as the parent (the broker's callers) ---- */

/** GTK_BUTTON_BOX(): a widget known to be a button box. */
static inline GtkButtonBox *cwk_button_box(GtkWidget *widget) { return GTK_BUTTON_BOX(widget); }

/* Declared here, not by including <gdk/gdkx.h> and <gdk/gdkwayland.h>: those bring Xlib's and
 * Wayland's global names (Window, Display, Status, Atom...) into every Swift file of the engine.
 * libgdk-3 exports both (GTK 3.22 and later); an X11 Window is an unsigned long. */
GdkWindow *gdk_x11_window_foreign_new_for_display(GdkDisplay *display, unsigned long window);
unsigned long gdk_x11_window_get_xid(GdkWindow *window);
gboolean gdk_wayland_window_set_transient_for_exported(GdkWindow *window, char *parent_handle_str);

/** The X11 window ID of `widget`'s toplevel, by which X clients (xdotool, xprop) name it; 0 when the
 *  display is not X11 or the toplevel has no X11 window yet. */
static inline unsigned long cwk_x11_window_id(GtkWidget *widget) {
    GdkDisplay *display = gdk_display_get_default();
    if (!display || g_strcmp0(G_OBJECT_TYPE_NAME(display), "GdkX11Display") != 0) return 0;
    GdkWindow *window = gtk_widget_get_window(gtk_widget_get_toplevel(widget));
    return window ? gdk_x11_window_get_xid(window) : 0;
}

/** The GDK window of another program's X11 window `xid` (a new reference; keep it while a window
 *  is transient for it), or NULL when the display is not X11 or no such window exists. */
static inline GdkWindow *cwk_foreign_x11_window(unsigned long xid) {
    GdkDisplay *display = gdk_display_get_default();
    if (!display || g_strcmp0(G_OBJECT_TYPE_NAME(display), "GdkX11Display") != 0) return NULL;
    return gdk_x11_window_foreign_new_for_display(display, xid);
}

/** Makes `window` transient for `parent` (another program's window): realizes `window` first, so
 *  the hint is on its X11 window before it is mapped, as xdg-desktop-portal-gtk does. Call it after
 *  the window's title bar is set (GTK takes none once realized). */
static inline void cwk_window_set_transient_for_foreign(GtkWidget *window, GdkWindow *parent) {
    gtk_widget_realize(window);
    gdk_window_set_transient_for(gtk_widget_get_window(window), parent);
}

/** Makes `window` transient for the Wayland surface another program exported as `handle`
 *  (xdg-foreign, through the compositor): realizes it first. FALSE when the display is not
 *  Wayland or the compositor has no xdg-foreign. */
static inline gboolean cwk_window_set_transient_for_exported(GtkWidget *window, const char *handle) {
    GdkDisplay *display = gtk_widget_get_display(window);
    if (!display || g_strcmp0(G_OBJECT_TYPE_NAME(display), "GdkWaylandDisplay") != 0) return FALSE;
    gtk_widget_realize(window);
    return gdk_wayland_window_set_transient_for_exported(gtk_widget_get_window(window), (char *)handle);
}

/* ---- A broker whose bus went away leaves ------------------------ */


#endif /* CWEBKITGTK_H */
