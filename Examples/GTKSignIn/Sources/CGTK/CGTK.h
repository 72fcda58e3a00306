// GTK 3 for the example application. GTK's signal connection and its casts are C macros, which
// Swift cannot call: each one this application uses is a static inline function here.
#ifndef CGTK_H
#define CGTK_H

#include <glib-unix.h>
#include <gtk/gtk.h>

/// Casts a widget to a window (the macro GTK_WINDOW).
static inline GtkWindow *cgtk_window(GtkWidget *widget) { return GTK_WINDOW(widget); }
/// Casts a widget to a container (GTK_CONTAINER).
static inline GtkContainer *cgtk_container(GtkWidget *widget) { return GTK_CONTAINER(widget); }
/// Casts a widget to a box (GTK_BOX).
static inline GtkBox *cgtk_box(GtkWidget *widget) { return GTK_BOX(widget); }
/// Casts a widget to a label (GTK_LABEL).
static inline GtkLabel *cgtk_label(GtkWidget *widget) { return GTK_LABEL(widget); }

/// Calls `handler` with `data` when `button` is clicked (g_signal_connect, a macro); GLib calls
/// `release` with `data` when the button is destroyed.
static inline void cgtk_on_clicked(GtkWidget *button, void (*handler)(GtkWidget *, gpointer), gpointer data, GClosureNotify release) {
    g_signal_connect_data(button, "clicked", G_CALLBACK(handler), data, release, 0);
}

/// Calls `handler` when `widget` is destroyed (a window: when the person closes it).
static inline void cgtk_on_destroy(GtkWidget *widget, void (*handler)(GtkWidget *, gpointer)) {
    g_signal_connect_data(widget, "destroy", G_CALLBACK(handler), NULL, NULL, 0);
}

/// Quits `gtk_main`; a GLib source callback that runs once.
static inline gboolean cgtk_quit_main(gpointer data) {
    (void) data;
    gtk_main_quit();
    return G_SOURCE_REMOVE;
}

/// Ends `gtk_main` on SIGTERM, SIGINT or SIGHUP (a session's logout, Ctrl-C, a closed terminal), so
/// that `main` returns and the process exits normally: the engine's exit handler then closes its
/// windows and removes its scratch folder, which a signal's default action would leave behind.
static inline void cgtk_quit_on_termination_signals(void) {
    static const int signals[] = { SIGTERM, SIGINT, SIGHUP };
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++)
        g_unix_signal_add(signals[i], cgtk_quit_main, NULL);
}

#endif
