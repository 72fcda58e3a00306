import CWebKitGTK
import DevProvider
import Foundation
import OpenIDConnect
import SecretGate
import TestSupport
import Testing
@testable import WebAuthSession

/// ``ClientCertificate`` from the Swift API: files read (and refused) before any use, and
/// ``SoupHTTPClient`` presenting the certificate to an HTTPS front (`tls_front.py`) that requires
/// one its CA signed, in front of the development provider.
@Suite("ClientCertificate and SoupHTTPClient against a server that requires a client certificate", .timeLimit(.minutes(3)))
struct ClientCertificateTests {
    let password = "p12-\(UUID().uuidString.prefix(8))"

    /// A provider and its front that requires a client certificate.
    func start() async throws -> (OpenIDProvider, PythonFixtureServer) {
        let provider = try await OpenIDProvider.start()
        let front = try await PythonFixtureServer(script: "tls_front",
                                            arguments: [String(URL(string: provider.issuer)!.port!), "--require-client-certificate", password])
        return (provider, front)
    }

    @Test("SoupHTTPClient presents the certificate a server requires; a client without one then fails with a TLS error (no resumed session)")
    func soupClientPresentsIt() async throws {
        let (provider, front) = try await start()
        let caFile = try TrustedCAFile(path: front.workdir.appendingPathComponent("ca.pem").path)
        let certificate = try ClientCertificate(file: front.workdir.appendingPathComponent("client.pem").path)
        let jwks = HTTPRequest(url: URL(string: "https://127.0.0.1:\(front.port)/jwks")!)
        let response = try await SoupHTTPClient(proxy: .none, caFile: caFile, clientCertificate: certificate).send(jwks)
        #expect(response.status == 200)
        let log = try String(contentsOf: front.workdir.appendingPathComponent("clients.log"), encoding: .utf8)
        #expect(log == "GET /jwks webauth test client\n")
        // After, in the same process: GnuTLS resumes TLS sessions, and a resumed session keeps the
        // client certificate it was made with, so a client without one must not resume that one.
        do {
            _ = try await SoupHTTPClient(proxy: .none, caFile: caFile).send(jwks)
            Issue.record("a request without the certificate was answered")
        } catch {
            if case .tls = error {} else { Issue.record("not a TLS error: \(error)") }
        }
        #expect(provider.requestCount("/jwks") == 1)
    }

    @Test("a PKCS#12 file opens with its password; a wrong one, none, a PEM file without its key or no file are typed errors naming the file")
    func filesReadFirst() async throws {
        let (_, front) = try await start()
        let file = { (name: String) in front.workdir.appendingPathComponent(name).path }
        #expect(try ClientCertificate(file: file("client.p12"), password: password).source == .file(path: file("client.p12"), keyPath: nil))
        _ = try ClientCertificate(file: file("client-cert.pem"), keyPath: file("client-key.pem"))
        #expect(throws: ClientCertificateError.wrongPassword(path: file("client.p12"), passwordGiven: true)) {
            try ClientCertificate(file: file("client.p12"), password: "not-" + password)
        }
        #expect(throws: ClientCertificateError.wrongPassword(path: file("client.p12"), passwordGiven: false)) {
            try ClientCertificate(file: file("client.p12"))
        }
        #expect(throws: ClientCertificateError.noPrivateKey(path: file("client-cert.pem"))) { try ClientCertificate(file: file("client-cert.pem")) }
        #expect(throws: ClientCertificateError.unreadable(path: file("nothing.pem"), message: "no such readable file")) {
            try ClientCertificate(file: file("nothing.pem"))
        }
        #expect(throws: ClientCertificateError.pinInURI) { try ClientCertificate(pkcs11: "pkcs11:token=a;object=b;pin-value=1234") }
    }

    @Test("a PKCS#12 file that GIO's own reader never opens (its bags decrypt with the empty password to valid padding) opens with its password; a wrong one is still refused as one")
    func fileThatDefeatsGIOsReaderOpens() throws {
        // Made by tls_front.py's commands (openssl 3, P-256, AES-256-CBC bags); about one such file in
        // several hundred is like it. glib-networking 2.74 first reads a file with no password and keeps
        // that attempt's error unless it says "wrong password"; here it is an ASN.1 one.
        let path = try #require(Bundle.module.path(forResource: "empty-password-padding", ofType: "p12", inDirectory: "Fixtures/pkcs12"))
        let password = "p12-b24b1787"
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        var error: UnsafeMutablePointer<GError>?
        let gio = g_tls_certificate_new_from_pkcs12(data, gsize(data.count), password, &error)
        #expect(gio == nil && error.map { String(cString: $0.pointee.message) }?.contains("ASN1") == true, "the file no longer shows GIO's bug")
        if let gio { g_object_unref(gio) }
        if let error { g_error_free(error) }

        let opened = try ClientCertificate(file: path, password: password)
        let subject = opened.certificate.withPointer { g_tls_certificate_get_subject_name($0).map { name in
            defer { g_free(name) }
            return String(cString: name)
        } }
        #expect(subject == "CN=webauth test client")
        #expect(throws: ClientCertificateError.wrongPassword(path: path, passwordGiven: true)) { try ClientCertificate(file: path, password: "p12-00000000") }
        #expect(throws: ClientCertificateError.wrongPassword(path: path, passwordGiven: false)) { try ClientCertificate(file: path) }
    }
}

extension EngineTests {
    /// A page behind a server that requires a client certificate (`tls_front.py` in front of a
    /// ``TestSite`` page that redirects to the app).
    @Suite("Client certificates asked by the page")
    struct ClientCertificates {
        /// WebKit's one network process serves both sessions; a third session kept open beside them
        /// keeps it running between them (a kiosk's next visitor, a broker's next app). Without
        /// `TLSSessionTickets`, the second session resumed the first one's TLS session, and the
        /// server saw the first session's certificate.
        @Test("a session with the certificate gets through; a session without one after it fails with clientCertificateRequested, resuming nothing")
        func presentedAndIsolated() async throws {
            let site = try await TestSite.start()
            let page = site.serve(.redirect(to: "com.example:/cb?reached=yes"))
            let beside = Task { try? await TestEngine.session(site.page(body: "<p>open</p>"), redirectURI: "com.example:/cb").start() }
            defer { beside.cancel() }
            let front = try await PythonFixtureServer(script: "tls_front", arguments: [String(site.server.baseURL.port!), "--require-client-certificate", "pw"])
            let start = URL(string: "https://127.0.0.1:\(front.port)\(page.path)")!
            var options = TestEngine.options()
            options.caFile = try TrustedCAFile(path: front.workdir.appendingPathComponent("ca.pem").path)
            var withCertificate = options
            withCertificate.clientCertificate = try ClientCertificate(file: front.workdir.appendingPathComponent("client.pem").path)
            let callback = try await TestEngine.session(start, redirectURI: "com.example:/cb", options: withCertificate).start()
            #expect(callback["reached"] == "yes")
            await #expect(throws: WebAuthenticationError.clientCertificateRequested(host: "127.0.0.1")) {
                try await TestEngine.session(start, redirectURI: "com.example:/cb", options: options).start()
            }
            beside.cancel()
            _ = await beside.value
        }

        /// Before: the certificate went to any host that asked for one.
        @Test("the certificate goes only to the sign-in's host and secretHosts: another host that asks ends the session with secretRefused")
        func onlyToItsHosts() async throws {
            let site = try await TestSite.start()
            let page = site.serve(.redirect(to: "com.example:/cb?reached=yes"))
            let front = try await PythonFixtureServer(script: "tls_front", arguments: [String(site.server.baseURL.port!), "--require-client-certificate", "pw"])
            let start = site.page(body: "<script>location.href = \(js("https://localhost:\(front.port)\(page.path)"))</script>")
            var options = TestEngine.options()
            options.caFile = try TrustedCAFile(path: front.workdir.appendingPathComponent("ca.pem").path)
            options.clientCertificate = try ClientCertificate(file: front.workdir.appendingPathComponent("client.pem").path)
            let refusal = SecretRefusal(secret: .clientCertificate, recipient: .site(scheme: "https", host: "localhost", port: front.port),
                                        reason: .hostNotAllowed(allowed: ["127.0.0.1"]))
            await #expect(throws: WebAuthenticationError.secretRefused(refusal)) {
                try await TestEngine.session(start, redirectURI: "com.example:/cb", options: options).start()
            }
            options.secretHosts = ["localhost"]
            #expect(try await TestEngine.session(start, redirectURI: "com.example:/cb", options: options).start()["reached"] == "yes")
        }
    }
}
