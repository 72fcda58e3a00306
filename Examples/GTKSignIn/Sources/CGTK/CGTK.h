// GTK 3 for the example application. GTK's signal connection and its casts are C macros, which
// Swift cannot call: each one this application uses is a static inline function here.
#ifndef CGTK_H
#define CGTK_H

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

#endif
