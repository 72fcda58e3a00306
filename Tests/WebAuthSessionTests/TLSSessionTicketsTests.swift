import Foundation
import Testing
@testable import WebAuthSession

/// ``TLSSessionTickets``: the GnuTLS priorities the engine gives glib-networking (the sessions it
/// keeps apart are tested with a client certificate, in `ClientCertificateTests`).
@Suite("TLS session tickets off for WebKit's network process")
struct TLSSessionTicketsTests {
    @Test("glib-networking's default with tickets off; a priority string already set keeps its choices, gaining %NO_TICKETS once")
    func value() {
        #expect(TLSSessionTickets.value(existing: nil, systemDefault: nil) == "NORMAL:%COMPAT:%NO_TICKETS")
        #expect(TLSSessionTickets.value(existing: "", systemDefault: "SECURE128") == "SECURE128:%COMPAT:%NO_TICKETS")
        #expect(TLSSessionTickets.value(existing: "PERFORMANCE:-VERS-TLS1.2", systemDefault: nil) == "PERFORMANCE:-VERS-TLS1.2:%NO_TICKETS")
        #expect(TLSSessionTickets.value(existing: "NORMAL:%NO_TICKETS", systemDefault: nil) == "NORMAL:%NO_TICKETS")
    }

    @Test("the system configuration's default-priority-string replaces NORMAL; a file without one, or none, leaves NORMAL")
    func systemDefault() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gnutls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("config")
        try "[overrides]\n# a comment\ndefault-priority-string = SECURE128:-VERS-TLS-ALL:+VERS-TLS1.3\n".write(to: config, atomically: true, encoding: .utf8)
        #expect(TLSSessionTickets.systemDefault(["GNUTLS_SYSTEM_PRIORITY_FILE": config.path]) == "SECURE128:-VERS-TLS-ALL:+VERS-TLS1.3")
        try "[overrides]\ninsecure-hash = sha1\n".write(to: config, atomically: true, encoding: .utf8)
        #expect(TLSSessionTickets.systemDefault(["GNUTLS_SYSTEM_PRIORITY_FILE": config.path]) == nil)
        #expect(TLSSessionTickets.systemDefault(["GNUTLS_SYSTEM_PRIORITY_FILE": folder.appendingPathComponent("none").path]) == nil)
    }
}
