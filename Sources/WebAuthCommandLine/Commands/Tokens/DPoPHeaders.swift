import Foundation
import OpenIDConnect

/// `webauth token --dpop METHOD URL`: the headers of a caller's own request with a DPoP-bound
/// access token (RFC 9449 §7), one per line, proof first:
///
/// ```
/// DPoP: eyJ0eXAiOiJkcG9wK2p3dCIs...
/// Authorization: DPoP Kz3k...
/// ```
package struct DPoPHeaders {
    package let method: String
    package let url: URL

    /// The request `arguments` names: a method and an absolute http(s) URL.
    /// - Throws: ``CommandFailure`` (usage) otherwise.
    package init(_ arguments: [String]) throws(CommandFailure) {
        guard arguments.count == 2, let url = URL(string: arguments[1]), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
              url.host?.isEmpty == false else {
            throw CommandFailure(.usage, "--dpop takes a method and a URL, such as --dpop GET https://api.example.com/items")
        }
        method = arguments[0].uppercased()
        self.url = url
    }

    /// Prints the two header lines with a fresh token of `signIn`.
    /// - Throws: ``CommandFailure``: usage when the sign-in is not DPoP-bound.
    package func print(for signIn: SavedSignIn) async throws(CommandFailure) {
        guard signIn.state.dpopKey != nil else { throw CommandFailure(.usage, "\(DPoPError.notBound): webauth login --dpop") }
        let headers: [String: String]
        do { headers = try await signIn.manager().authorizationHeaders(method: method, url: url) } catch { throw CommandFailure(error) }
        guard let proof = headers["DPoP"], let authorization = headers["Authorization"] else {
            throw CommandFailure(.providerError, "\(DPoPError.notBound): the provider issued bearer tokens")
        }
        Swift.print("DPoP: \(proof)\nAuthorization: \(authorization)")
    }
}
