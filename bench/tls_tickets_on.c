/*
 * For bench/tls.py only, never shipped: loaded with LD_PRELOAD into webauth and every process it
 * starts (WebKit's network process among them), it hides "%NO_TICKETS" from glib-networking's
 * GnuTLS priorities (G_TLS_GNUTLS_PRIORITY, which the engine always sets with it), so that the same
 * binaries resume TLS sessions with tickets: what the engine's tickets-off costs is the difference.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

char *getenv(const char *name) {
    static char *(*real)(const char *);
    static __thread char stripped[1024];
    if (real == NULL) real = (char *(*)(const char *))dlsym(RTLD_NEXT, "getenv");
    char *value = real(name);
    if (value == NULL || strcmp(name, "G_TLS_GNUTLS_PRIORITY") != 0 || strlen(value) >= sizeof stripped) return value;
    const char *tickets = strstr(value, ":%NO_TICKETS");
    if (tickets == NULL) return value;
    size_t head = (size_t)(tickets - value);
    memcpy(stripped, value, head);
    strcpy(stripped + head, tickets + strlen(":%NO_TICKETS"));
    return stripped;
}
