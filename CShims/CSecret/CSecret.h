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

#endif /* CSECRET_H */
