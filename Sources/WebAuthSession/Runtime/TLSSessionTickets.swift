import Foundation

/// Keeps TLS sessions from being resumed across sign-ins.
///
/// WebKit's network process serves every session of the engine, and glib-networking keeps one
/// cache of TLS 1.3 session tickets per process, keyed by the server's address and name (and a
/// client certificate only when one was set before the handshake, which WebKit never does: it
/// presents one when the server asks). A later session, with no certificate or another visitor's
/// cookies, would resume the earlier one's TLS session: the server then sees the earlier session's
/// client certificate, and can link the two visitors by the ticket. With `%NO_TICKETS`, GnuTLS
/// asks for no tickets, so every connection makes a full handshake of its own.
///
/// glib-networking reads its priorities from `G_TLS_GNUTLS_PRIORITY` once, in each process:
/// ``GTKEnvironment`` writes it before GTK and the first web context, so the network process
/// inherits it.
enum TLSSessionTickets {
    /// The environment variable glib-networking reads (a GnuTLS priority string).
    static let variable = "G_TLS_GNUTLS_PRIORITY"
    /// The GnuTLS keyword that turns session tickets off.
    static let noTickets = "%NO_TICKETS"

    /// The variable's value: `existing` (the environment's) with tickets off, or glib-networking's
    /// own default (the system's default priorities, then `%COMPAT`) with tickets off.
    /// - Parameter systemDefault: the system configuration's `default-priority-string`, if it sets one.
    static func value(existing: String?, systemDefault: String?) -> String {
        if let existing, !existing.isEmpty {
            return existing.split(separator: ":").contains { $0 == noTickets } ? existing : existing + ":" + noTickets
        }
        return (systemDefault ?? "NORMAL") + ":%COMPAT:" + noTickets
    }

    /// The `default-priority-string` of GnuTLS's system configuration (`GNUTLS_SYSTEM_PRIORITY_FILE`,
    /// else `/etc/gnutls/config`), the default priorities it replaces `NORMAL` with.
    static func systemDefault(_ environment: [String: String]) -> String? {
        let path = environment["GNUTLS_SYSTEM_PRIORITY_FILE"] ?? "/etc/gnutls/config"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in text.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == "default-priority-string" else { continue }
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            if !value.isEmpty { return value }
        }
        return nil
    }
}
