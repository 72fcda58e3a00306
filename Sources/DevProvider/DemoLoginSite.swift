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
            return .html(page(title: "Bad request", body: "<p>redirect_uri and state are required.</p>"), status: 400)
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
        page(title: "Sign in to the WebAuthSession demo", body: """
            <h1>Sign in</h1>
            \(error.map { "<p id='error' role='alert'>\($0)</p>" } ?? "")
            <form method="post">
              <label>User name <input id="username" name="username" autocomplete="username" autofocus></label>
              <label>Password <input id="password" name="password" type="password" autocomplete="current-password"></label>
              <button id="sign-in" type="submit">Sign in</button>
            </form>
            <p class="hint">Demo account: \(username) / \(password)</p>
            """)
    }

    private static func page(title: String, body: String) -> String {
        """
        <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>\(title)</title>
        <meta name="viewport" content="width=device-width">
        <style>
          body { font: 16px system-ui, sans-serif; max-width: 22rem; margin: 3rem auto; color: #1d1d1f; }
          label { display: block; margin: 1rem 0; } input { display: block; width: 100%; padding: .5rem; font: inherit; }
          button { padding: .6rem 1.2rem; font: inherit; background: #2b59c3; color: white; border: 0; border-radius: 4px; }
          #error { color: #b00020; } .hint { color: #666; font-size: .9rem; }
        </style></head><body>\(body)</body></html>
        """
    }
}
