/*
 * CSoup: the C surface that needs GLib, GIO and libsoup 3 but neither WebKit nor GTK, through
 * pkg-config `libsoup-3.0`: the GLib kit (Sources/GLibKit/: GObject casts, signal connection,
 * a main context's scheduling) and the engine's own HTTP (Sources/WebAuthNetwork/: libsoup's
 * message signals, TLS certificates). The light `webauth` (token, env, exec, status, the
 * credential helpers) links this and not CWebKitGTK, which includes this header for the engine.
 * Each `static inline` exists because Swift cannot see a C macro or call a variadic function,
 * and says which. Imported `internal` only, as CWebKitGTK is.
 */
#ifndef CSOUP_H
#define CSOUP_H

#include <libsoup/soup.h>

/** G_OBJECT(): any GObject instance as a GObject. */
static inline GObject *cwk_object(gpointer instance) { return G_OBJECT(instance); }

#define CWK_CONNECT(instance, signal, handler, data, destroy) \
    g_signal_connect_data((instance), (signal), G_CALLBACK(handler), (data), (destroy), (GConnectFlags)0)

/** Runs `function(data)` once on the next iteration of `context`, never inline.
 *  (g_main_context_invoke() runs inline when the caller owns the context, which
 *  would break an actor executor's one-job-at-a-time rule.) Safe from any thread. */
static inline void cwk_main_context_schedule(GMainContext *context, GSourceFunc function, gpointer data) {
    GSource *source = g_idle_source_new();
    g_source_set_priority(source, G_PRIORITY_DEFAULT);
    g_source_set_callback(source, function, data, NULL);
    g_source_attach(source, context);
    g_source_unref(source);
}

/** SoupMessage::authenticate (a server or a proxy asks the HTTP client for credentials);
 *  returning TRUE means the handler answered (soup_auth_authenticate or soup_auth_cancel). */
typedef gboolean (*CWKSoupAuthenticateHandler)(SoupMessage *, SoupAuth *, gboolean retrying, gpointer);
static inline gulong cwk_connect_soup_authenticate(SoupMessage *message, CWKSoupAuthenticateHandler handler,
                                                   gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(message, "authenticate", handler, data, destroy);
}

/** SoupMessage::accept-certificate (the peer's certificate failed the TLS database's checks);
 *  returning TRUE accepts it. */
typedef gboolean (*CWKSoupAcceptCertificateHandler)(SoupMessage *, GTlsCertificate *, GTlsCertificateFlags, gpointer);
static inline gulong cwk_connect_soup_accept_certificate(SoupMessage *message, CWKSoupAcceptCertificateHandler handler,
                                                         gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(message, "accept-certificate", handler, data, destroy);
}

/** Whether a certificate has its private key, in memory (`private-key`) or on a PKCS#11 token
 *  (`private-key-pkcs11-uri`): g_object_get() is variadic, which Swift cannot call. */
static inline gboolean cwk_tls_certificate_has_private_key(GTlsCertificate *certificate) {
    GByteArray *key = NULL;
    gchar *uri = NULL;
    g_object_get(certificate, "private-key", &key, "private-key-pkcs11-uri", &uri, NULL);
    gboolean has = key != NULL || uri != NULL;
    if (key) g_byte_array_unref(key);
    g_free(uri);
    return has;
}

/** SoupMessage::request-certificate-password (a PKCS#11 token asks for its PIN during the
 *  handshake); returning TRUE means the handler set it and called
 *  soup_message_tls_client_certificate_password_request_complete(). */
typedef gboolean (*CWKSoupCertificatePasswordHandler)(SoupMessage *, GTlsPassword *, gpointer);
static inline gulong cwk_connect_soup_request_certificate_password(SoupMessage *message, CWKSoupCertificatePasswordHandler handler,
                                                                   gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(message, "request-certificate-password", handler, data, destroy);
}

/** SoupMessage::network-event (a step of the message's connection: resolving, connecting, the TLS
 *  handshake starting...), with the connection's stream. */
typedef void (*CWKSoupNetworkEventHandler)(SoupMessage *, GSocketClientEvent, GIOStream *, gpointer);
static inline gulong cwk_connect_soup_network_event(SoupMessage *message, CWKSoupNetworkEventHandler handler,
                                                    gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(message, "network-event", handler, data, destroy);
}

/** Gives a TLS connection (a stream that is one) its client certificate before its handshake:
 *  GnuTLS then keys the sessions it resumes by the certificate too, so a connection with another
 *  certificate or none never resumes this one's. (libsoup's own
 *  soup_message_set_tls_client_certificate() answers the server's request during the handshake,
 *  after the session's key was made without it.) */
static inline void cwk_tls_stream_set_certificate(GIOStream *stream, GTlsCertificate *certificate) {
    if (G_IS_TLS_CONNECTION(stream)) g_tls_connection_set_certificate(G_TLS_CONNECTION(stream), certificate);
}

/** GDBusConnection::closed (the bus daemon went, or the connection broke). The connection is a
 *  `GDBusConnection *` that the broker holds as an opaque pointer. */
typedef void (*CWKBusClosedHandler)(void *, gboolean, GError *, gpointer);
static inline gulong cwk_connect_bus_closed(void *connection, CWKBusClosedHandler handler,
                                            gpointer data, GClosureNotify destroy) {
    return CWK_CONNECT(connection, "closed", handler, data, destroy);
}

#endif /* CSOUP_H */
