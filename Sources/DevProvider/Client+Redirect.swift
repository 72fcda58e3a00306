import Foundation

extension DevProviderConfiguration.Client {
    /// Whether `requested` is one of the client's redirect URIs: exactly, except that a registered
    /// loopback `http` URI without a port matches any port (RFC 8252 §7.3: native apps listen on a
    /// port the system gives them).
    func allowsRedirect(to requested: String) -> Bool {
        redirectURIs.contains { registered in
            if requested == registered { return true }
            guard let asked = URLComponents(string: requested), let known = URLComponents(string: registered),
                  known.scheme == "http", known.port == nil, asked.scheme == "http", asked.port != nil,
                  ["127.0.0.1", "[::1]", "::1"].contains(known.host ?? "") else { return false }
            return asked.host == known.host && asked.path == known.path && asked.query == known.query
        }
    }
}
