import OpenIDConnect
import WebAuthSupport

/// `/logout`, RP-initiated logout: records the `id_token_hint`, ends the person's remembered
/// session (``ProviderSessions``), and returns to a registered post-logout redirect URI with
/// `state`; without one, shows a "signed out" page. With
/// ``ProviderFault/confirmSignOut`` it first asks, and the form posts the answer back here.
final class EndSessionEndpoint: Sendable {
    private let context: ProviderContext
    private let clients: ClientRegistry
    private let sessions: ProviderSessions
    /// The hints of the logouts received so far. Not a `Mutex`: see ``LockedState`` (server threads).
    private let hints = LockedState<[String]>([])

    init(context: ProviderContext, clients: ClientRegistry, sessions: ProviderSessions) {
        self.context = context
        self.clients = clients
        self.sessions = sessions
    }

    /// The `id_token_hint`s of the logouts received so far.
    var logoutHints: [String] { hints.withLock { $0 } }

    /// `GET` or `POST /logout`.
    func respond(to request: LocalHTTPRequest) -> LocalHTTPResponse {
        let query = ProviderForm.fields(request.query)
        if context.has(.confirmSignOut) {
            guard request.method == "POST" else {
                hints.withLock { $0.append(query["id_token_hint"] ?? "") }
                return .html(LoginPage.confirmSignOut())
            }
            guard ProviderForm.fields(request.body)["decision"] == "sign-out" else {
                return .html(LoginPage.message(title: "Still signed in", "You are still signed in."))
            }
        } else {
            hints.withLock { $0.append(query["id_token_hint"] ?? "") }
        }
        let cookie = request.header("Cookie")
        guard let client = clients.client(query["client_id"]), let target = query["post_logout_redirect_uri"],
              client.postLogoutRedirectURIs.contains(target) else {
            return sessions.forgetting(cookieHeader: cookie, in: .html(LoginPage.message(title: "Signed out", "You are signed out.")))
        }
        return sessions.forgetting(cookieHeader: cookie, in: .toRedirectURI(target, mode: nil, [("state", query["state"] ?? "")]))
    }
}
