/*
 * CGDBus: GIO's D-Bus (GDBus) and GVariant, for the sign-in broker (WebAuthBroker) and its bus
 * contract (WebAuthBrokerContract), via pkg-config `gio-2.0`: GIO is linked by WebKitGTK already,
 * so the broker needs no new library, and the contract's decoding links it without WebKit (the
 * fuzzer does). Swift calls GDBus's and GVariant's plain C functions directly; a macro or a
 * variadic function it would need gets a `cdb_` shim here. Imported `internal` only: no C type
 * crosses a public Swift API.
 *
 * GObject lifetimes (references, the user data of exported objects, subscriptions and calls,
 * GErrors) go through the engine's GObject gateway (Sources/WebAuthSession/GObject/:
 * GObjectReference, RetainedBox, GLibError), as everywhere else in the package.
 */
#ifndef CGDBUS_H
#define CGDBUS_H

#include <gio/gio.h>

#endif /* CGDBUS_H */
