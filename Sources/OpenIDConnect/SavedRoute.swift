import Foundation

/// How a sign-in reached its provider, kept with it (``SavedClient/route``) so that later
/// requests of the same sign-in (refresh, userinfo, revocation, sign-out) take the same route
/// with no options given again: the proxy's address, the hosts reached without it, the file of
/// authorities trusted beside the system's, and the client certificate by path or PKCS#11 URI.
///
/// Paths and addresses only, never a secret: a proxy's password is dropped here (it comes from
/// the environment each time), and a PKCS#12 password or a token's PIN is never part of a path or
/// of a PKCS#11 URI that may be used (one holding `pin-value` is refused before it gets here). A
/// proxy taken from the environment (`https_proxy`, …) is not part of it: each run reads its own.
public struct SavedRoute: Sendable, Hashable, Codable {
    /// The proxy as given (`http://[user@]host:port`, without password), `none` for a direct
    /// route, or `nil` when the sign-in took the environment's.
    public var proxy: String?
    /// The hosts reached without ``proxy`` (`example.com`, `.example.com`, `10.0.0.0/8`).
    public var noProxy: [String]
    /// The PEM file of authorities trusted beside the system's.
    public var caFile: String?
    /// The client certificate: a PEM or PKCS#12 file's path, or a PKCS#11 URI.
    public var clientCertificate: String?
    /// The client certificate's key, when a PEM file of its own holds it.
    public var clientCertificateKey: String?

    /// A route; a password in `proxy` is dropped.
    public init(proxy: String? = nil, noProxy: [String] = [], caFile: String? = nil, clientCertificate: String? = nil,
                clientCertificateKey: String? = nil) {
        self.proxy = proxy.map(Self.withoutPassword)
        self.noProxy = noProxy
        self.caFile = caFile
        self.clientCertificate = clientCertificate
        self.clientCertificateKey = clientCertificateKey
    }

    /// Whether it names nothing: the system's and the environment's route.
    public var isEmpty: Bool { self == SavedRoute() }

    enum CodingKeys: String, CodingKey {
        case proxy, noProxy = "no_proxy", caFile = "ca_file", clientCertificate = "client_certificate"
        case clientCertificateKey = "client_certificate_key"
    }

    /// Decodes a saved route; a password someone wrote into the proxy's URL is dropped.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(proxy: try container.decodeIfPresent(String.self, forKey: .proxy),
                  noProxy: try container.decodeIfPresent([String].self, forKey: .noProxy) ?? [],
                  caFile: try container.decodeIfPresent(String.self, forKey: .caFile),
                  clientCertificate: try container.decodeIfPresent(String.self, forKey: .clientCertificate),
                  clientCertificateKey: try container.decodeIfPresent(String.self, forKey: .clientCertificateKey))
    }

    /// `proxy` with no password in its user information.
    private static func withoutPassword(_ proxy: String) -> String {
        guard var components = URLComponents(string: proxy), components.password != nil else { return proxy }
        components.password = nil
        return components.string ?? proxy
    }
}
