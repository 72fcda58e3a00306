/*
 * CSecret: libsecret (the Secret Service client, the Linux keychain), via pkg-config `libsecret-1`.
 * Swift cannot build a SecretSchema (a C struct with a fixed attribute array, usually a static
 * initialiser) nor call the variadic attribute functions; the `cws_` shims below do both.
 * Imported `internal` only.
 */
#ifndef CSECRET_H
#define CSECRET_H

#include <libsecret/secret.h>

/** The schema of saved auth states: one string attribute, the store's name. */
static inline const SecretSchema *cws_auth_state_schema(void) {
    static const SecretSchema schema = {
        "io.github.webauthsession.AuthState", SECRET_SCHEMA_NONE,
        { { "store", SECRET_SCHEMA_ATTRIBUTE_STRING }, { NULL, 0 } }
    };
    return &schema;
}

/** The attributes that find one store's item: {"store": name}. Free with g_hash_table_unref. */
static inline GHashTable *cws_store_attributes(const char *name) {
    GHashTable *attributes = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
    g_hash_table_insert(attributes, (gpointer)"store", g_strdup(name));
    return attributes;
}

/*
 * The store check and `webauth profiles`. Both run blocking D-Bus calls
 * and are called on a thread of their own, never on Swift's cooperative pool.
 */

/** What the keyring's default collection (where new items go) is like. */
typedef enum {
    CWS_COLLECTION_USABLE,      /* there, and unlocked */
    CWS_COLLECTION_MISSING,     /* no default collection (no "login" keyring): a new item has nowhere to go */
    CWS_COLLECTION_LOCKED,      /* there, but locked */
    CWS_SERVICE_UNREACHABLE     /* no Secret Service answered; *error says why */
} CWSCollectionState;

/** The default collection's state; *label gets its label when there is one (free with g_free). */
static inline CWSCollectionState cws_default_collection_state(gchar **label, GError **error) {
    SecretService *service = secret_service_get_sync(SECRET_SERVICE_NONE, NULL, error);
    if (service == NULL) return CWS_SERVICE_UNREACHABLE;
    SecretCollection *collection = secret_collection_for_alias_sync(service, SECRET_COLLECTION_DEFAULT,
                                                                    SECRET_COLLECTION_NONE, NULL, error);
    g_object_unref(service);
    if (collection == NULL) return *error != NULL ? CWS_SERVICE_UNREACHABLE : CWS_COLLECTION_MISSING;
    *label = secret_collection_get_label(collection);
    gboolean locked = secret_collection_get_locked(collection);
    g_object_unref(collection);
    return locked ? CWS_COLLECTION_LOCKED : CWS_COLLECTION_USABLE;
}

/** The store names of every saved auth state, NULL-terminated (free with g_strfreev); on an
 *  error, *error is set and the list is empty. */
static inline gchar **cws_saved_store_names(GError **error) {
    GHashTable *any = g_hash_table_new(g_str_hash, g_str_equal);
    GList *items = secret_password_searchv_sync(cws_auth_state_schema(), any, SECRET_SEARCH_ALL, NULL, error);
    g_hash_table_unref(any);
    GPtrArray *names = g_ptr_array_new();
    for (GList *item = items; item != NULL; item = item->next) {
        GHashTable *attributes = secret_retrievable_get_attributes(SECRET_RETRIEVABLE(item->data));
        const gchar *name = g_hash_table_lookup(attributes, "store");
        if (name != NULL) g_ptr_array_add(names, g_strdup(name));
        g_hash_table_unref(attributes);
    }
    g_list_free_full(items, g_object_unref);
    g_ptr_array_add(names, NULL);
    return (gchar **)g_ptr_array_free(names, FALSE);
}

/*
 * What reading a saved sign-in asks of the bus (`webauth token`, the credential helpers): whether a
 * Secret Service answers, then the item. Both go through libsecret's shared SecretService, made once
 * per process (secret_service_get_sync), so the bus sees one service proxy, not the two that
 * secret_password_lookupv_sync would make (it builds a service of its own), and no lookup of the
 * default collection, which only saving needs (cws_default_collection_state).
 */

/** Whether a Secret Service answers on the session bus; *error says why not when the proxy itself
 *  could not be made. A proxy is made whether or not anyone owns the name (GDBusProxy's rule; its
 *  start activates an activatable service), so the answer is whether the name has an owner now:
 *  on a bus with no Secret Service at all, the proxy comes back and no one answers it. */
static inline gboolean cws_service_answers(GError **error) {
    SecretService *service = secret_service_get_sync(SECRET_SERVICE_NONE, NULL, error);
    if (service == NULL) return FALSE;
    gchar *owner = g_dbus_proxy_get_name_owner(G_DBUS_PROXY(service));
    g_object_unref(service);
    gboolean answers = owner != NULL;
    g_free(owner);
    return answers;
}

/** The secret of the auth state item of the store `name`: NULL when there is none (*error unset)
 *  or on an error. Free with secret_password_free, which wipes it. */
static inline gchar *cws_lookup_secret(const char *name, GError **error) {
    SecretService *service = secret_service_get_sync(SECRET_SERVICE_OPEN_SESSION, NULL, error);
    if (service == NULL) return NULL;
    GHashTable *attributes = cws_store_attributes(name);
    SecretValue *value = secret_service_lookup_sync(service, cws_auth_state_schema(), attributes, NULL, error);
    g_hash_table_unref(attributes);
    g_object_unref(service);
    gsize length = 0;
    return value == NULL ? NULL : secret_value_unref_to_password(value, &length);
}

#endif /* CSECRET_H */
