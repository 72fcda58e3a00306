import Foundation
import OpenIDConnect

/// A minimal authorization endpoint for the demo: a login form that, given the right
/// password, redirects to the client's redirect URI with a fresh `code` and the `state` it
/// was sent. It is not an OpenID provider (no tokens, no PKCE); it shows the engine at work.
public final class DemoLoginSite: Sendable {
    /// The user name the login form accepts.
    public static let username = "alice"
    /// The password the login form accepts.
    public static let password = "wonderland"

    private let server: LocalHTTPServer

    /// The authorization endpoint, `http://127.0.0.1:PORT/authorize`.
    public var authorizationEndpoint: URL { server.baseURL.appendingPathComponent("authorize") }

    /// Starts the site on 127.0.0.1 and a free port.
    public static func start() async throws -> DemoLoginSite {
        DemoLoginSite(server: try await LocalHTTPServer.start { request in respond(to: request) })
    }

    private init(server: LocalHTTPServer) {
        self.server = server
    }

    /// Stops the site.
    public func stop() async { await server.stop() }

    private static func respond(to request: LocalHTTPRequest) -> LocalHTTPResponse {
        guard request.path == "/authorize" else { return LocalHTTPResponse(status: 404, body: "not found") }
        let query = Dictionary((try? FormURLEncoding.decode(request.query)) ?? [], uniquingKeysWith: { first, _ in first })
        guard let redirect = query["redirect_uri"], let redirectURI = try? RedirectURI(redirect), let state = query["state"] else {
            return .html(LoginPage.message(title: "Bad request", "redirect_uri and state are required."), status: 400)
        }
        guard request.method == "POST" else { return .html(loginForm(error: nil)) }
        let fields = Dictionary((try? FormURLEncoding.decode(request.body)) ?? [], uniquingKeysWith: { first, _ in first })
        guard fields["username"] == username, fields["password"] == password else {
            return .html(loginForm(error: "Wrong user name or password."), status: 401)
        }
        let code = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        return .redirect(to: redirectURI.string + "?" + FormURLEncoding.encode([("code", code), ("state", state)]))
    }

    private static func loginForm(error: String?) -> String {
        LoginPage.form(title: "Sign in to the WebAuthSession demo", error: error, hint: "Demo account: \(username) / \(password)")
    }
}
