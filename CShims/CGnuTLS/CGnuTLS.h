// GnuTLS's private-key API, for signing with a key on a PKCS#11 token (p11-kit finds the modules),
// and its PKCS#12 reader (a client certificate's file).
#include <gnutls/gnutls.h>
#include <gnutls/abstract.h>
#include <gnutls/pkcs11.h>
#include <gnutls/crypto.h>
#include <gnutls/pkcs12.h>
#include <gnutls/x509.h>
#include <string.h>

// A gnutls_pin_callback_t that gives the PIN `userdata` points to (a C string) once: never again
// after the token said it was wrong (no lockout by retrying), and nothing when there is none.
static inline int cgnutls_pin_once(void *userdata, int attempt, const char *token_url, const char *token_label,
                                   unsigned int flags, char *pin, size_t pin_max) {
    (void)token_url;
    (void)token_label;
    const char *given = userdata;
    if (given == NULL || attempt > 0 || (flags & GNUTLS_PIN_WRONG)) return GNUTLS_E_PKCS11_PIN_ERROR;
    size_t length = strlen(given);
    if (length + 1 > pin_max) return GNUTLS_E_PKCS11_PIN_ERROR;
    memcpy(pin, given, length + 1);
    return 0;
}

// Frees what GnuTLS allocated at `pointer`.
static inline void cgnutls_free(void *pointer) {
    gnutls_free(pointer);
}

// Frees what GnuTLS allocated in `datum` (gnutls_free is a macro Swift cannot call).
static inline void cgnutls_free_datum(gnutls_datum_t *datum) {
    gnutls_free(datum->data);
    datum->size = 0;
}
