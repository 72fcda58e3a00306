package import CSoup

/// A GObject signal with the C handler type it calls (the shim header's typed connect helpers,
/// so the compiler checks each handler's signature). ``SignalConnection`` connects one.
package struct GObjectSignal<Instance: GObjectPointer, Handler> {
    /// Connects a handler with its user data and the notify that releases it; returns the handler id.
    package let connect: (Instance, Handler, UnsafeMutableRawPointer?, GClosureNotify?) -> gulong

    /// A signal connected by `connect` (a typed `cwk_connect_*` helper of the shim headers).
    package init(connect: @escaping (Instance, Handler, UnsafeMutableRawPointer?, GClosureNotify?) -> gulong) {
        self.connect = connect
    }
}

extension GObjectSignal where Instance == OpaquePointer, Handler == CWKSoupAuthenticateHandler {
    /// `SoupMessage::authenticate` (a server or a proxy asks the HTTP client for credentials).
    package static var soupAuthenticate: Self { Self { cwk_connect_soup_authenticate($0, $1, $2, $3) } }
}

extension GObjectSignal where Instance == OpaquePointer, Handler == CWKSoupAcceptCertificateHandler {
    /// `SoupMessage::accept-certificate` (the peer's certificate failed the TLS database's checks).
    package static var acceptCertificate: Self { Self { cwk_connect_soup_accept_certificate($0, $1, $2, $3) } }
}

extension GObjectSignal where Instance == OpaquePointer, Handler == CWKSoupCertificatePasswordHandler {
    /// `SoupMessage::request-certificate-password` (a PKCS#11 token asks for its PIN in the TLS handshake).
    package static var requestCertificatePassword: Self { Self { cwk_connect_soup_request_certificate_password($0, $1, $2, $3) } }
}

extension GObjectSignal where Instance == OpaquePointer, Handler == CWKSoupNetworkEventHandler {
    /// `SoupMessage::network-event` (a step of the message's connection, with its stream).
    package static var networkEvent: Self { Self { cwk_connect_soup_network_event($0, $1, $2, $3) } }
}
