import Foundation
import OpenIDConnect
import OpenIDConnectURLSession

/// The person's browser, played over plain HTTP for the system browser's tests (give
/// ``signIn(at:username:password:)`` to `SystemBrowser.custom`): opened at the provider's
/// authorization URL, it posts the user's name and password to the development provider's login
/// page, first asks the loopback listener for a path it must not answer (`/favicon.ico`: 404),
/// then follows the redirect and checks the listener's landing page. Any other answer throws.
public enum ScriptedBrowser {
    /// Signs `username` in at `url`, as a person in a browser would.
    public static func signIn(at url: URL, username: String, password: String) async throws {
        let http = URLSessionHTTPClient()
        let form = [("username", username), ("password", password)]
            .map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $1)" }.joined(separator: "&")
        let login = try await http.send(HTTPRequest(method: "POST", url: url, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                                    body: Data(form.utf8)))
        guard let location = login.headers["location"], let redirect = URL(string: location),
              var other = URLComponents(url: redirect, resolvingAgainstBaseURL: false) else {
            throw URLError(.badServerResponse)
        }
        other.path = "/favicon.ico"
        other.query = nil
        guard let stray = other.url, try await http.send(HTTPRequest(url: stray)).status == 404 else { throw URLError(.badServerResponse) }
        let landing = try await http.send(HTTPRequest(url: redirect))
        guard String(decoding: landing.body, as: UTF8.self).contains("You can close this tab") else { throw URLError(.badServerResponse) }
    }
}
