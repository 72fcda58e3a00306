import Foundation
import OpenIDConnect
import WebAuthSupport

/// `/authorize`: the request's checks (client, redirect URI, PKCE S256, a pushed request taken back
/// from the ``PushedAuthorizationEndpoint``), the login pages (``LoginFlow``) unless the person's
/// session is remembered (``ProviderSessions``), consent, and the response sent to the client's
/// redirect URI; it issues the single-use codes the token endpoint redeems here.
final class AuthorizationEndpoint: Sendable {
    private struct Issued: Sendable {
        /// Codes handed out and not yet redeemed.
        var codes: [String: Grant] = [:]
        /// The languages each request asked for, oldest first.
        var languagesAsked: [LanguagesAsked] = []
    }

    private let context: ProviderContext
    private let clients: ClientRegistry
    private let login: LoginFlow
    private let pushed: PushedAuthorizationEndpoint
    private let sessions: ProviderSessions
    /// Not a `Mutex`: see ``LockedState`` (server threads).
    private let issued = LockedState(Issued())

    init(context: ProviderContext, clients: ClientRegistry, login: LoginFlow, pushed: PushedAuthorizationEndpoint, sessions: ProviderSessions) {
        (self.context, self.clients, self.login, self.pushed, self.sessions) = (context, clients, login, pushed, sessions)
    }

    /// The languages each request to the endpoint asked for, oldest first.
    var languagesAsked: [LanguagesAsked] { issued.withLock { $0.languagesAsked } }

    /// The grant of `code`, used up: a code is good once.
    func redeem(code: String) -> Grant? { issued.withLock { $0.codes.removeValue(forKey: code) } }

    /// `GET` or `POST /authorize`.
    func respond(to request: LocalHTTPRequest) -> LocalHTTPResponse {
        var query = ProviderForm.fields(request.query)
        let requestURI = query["request_uri"]
        if let requestURI {
            guard let parameters = pushed.parameters(requestURI, clientID: query["client_id"]) else {
                return .html(LoginPage.message(title: "Invalid request_uri",
                                               "This sign-in link has expired or was already used. Start the sign-in again."), status: 400)
            }
            query = parameters
        }
        let asked = LanguagesAsked(acceptLanguage: request.header("Accept-Language"), uiLocales: query["ui_locales"])
        issued.withLock { $0.languagesAsked.append(asked) }
        // Never redirect to a URI that is not registered for the client: show the error instead.
        guard let client = clients.client(query["client_id"]) else {
            return .html(LoginPage.message(title: "Unknown client", "This application is not registered."), status: 400)
        }
        guard let redirect = query["redirect_uri"], client.allowsRedirect(to: redirect) else {
            return .html(LoginPage.message(title: "Invalid redirect URI", "The redirect URI is not registered for this application."), status: 400)
        }
        let respond = { (pairs: [(name: String, value: String)]) -> LocalHTTPResponse in
            if let requestURI { self.pushed.consume(requestURI) }  // one response per pushed request
            let issuer = self.context.has(.wrongIssuer) ? "https://attacker.example" : self.context.issuer
            return .toRedirectURI(redirect, mode: query["response_mode"], pairs + [("state", query["state"] ?? ""), ("iss", issuer)])
        }
        if context.has(.disallowedUserAgent), Self.isEmbeddedView(request.header("User-Agent") ?? "") {
            return .html(LoginPage.message(title: "Error 403: disallowed_useragent",
                                           "This browser or app may not be secure. Use a secure browser to sign in."), status: 403)
        }
        if context.configuration.requirePushedAuthorizationRequests, requestURI == nil {
            return respond([("error", "invalid_request"), ("error_description", "this provider accepts pushed authorization requests only")])
        }
        guard query["response_type"] == "code" else { return respond([("error", "unsupported_response_type")]) }
        guard let challenge = query["code_challenge"], query["code_challenge_method"] == "S256" else {
            return respond([("error", "invalid_request"), ("error_description", "PKCE with S256 is required")])
        }
        let form = request.method == "POST" ? ProviderForm.fields(request.body) : [:]
        let cookie = request.header("Cookie")
        let remembered = request.method == "GET" ? sessions.subject(cookieHeader: cookie, prompt: query["prompt"]) : nil
        let step = remembered.map { LoginProgress.authenticated(subject: $0) }
            ?? login.step(form: form, query: query, rawQuery: request.query, method: request.method)
        guard case .authenticated(let subject) = step else {
            if case .page(let page, let status) = step { return .html(page, status: status) }
            return .html(LoginPage.message(title: "Bad request", "The form is not one of this provider's."), status: 400)
        }
        let scope = query["scope"] ?? "openid"
        if form["step"] == "consent" {
            guard form["decision"] == "allow" else {
                return respond([("error", "access_denied"), ("error_description", "the person denied access")])
            }
        } else if client.requiresConsent, remembered == nil || !sessions.allowed(client.clientID, cookieHeader: cookie, prompt: query["prompt"]) {
            return .html(login.consentPage(subject: subject, query: query, clientID: client.clientID, scope: scope))
        }
        if context.has(.deny) { return respond([("error", "access_denied"), ("error_description", "the person denied access")]) }
        let code = ProviderForm.randomToken()
        let grant = Grant(clientID: client.clientID, redirectURI: redirect, codeChallenge: challenge, nonce: query["nonce"],
                          subject: subject, scope: scope)
        issued.withLock { $0.codes[code] = grant }
        return sessions.remembering(subject, allowed: client.clientID, cookieHeader: cookie, in: respond([("code", code)]))
    }

    /// A web view embedded in an app, by the user agent's browser tokens (what user-agent sniffing providers look at).
    static func isEmbeddedView(_ userAgent: String) -> Bool {
        userAgent.contains("AppleWebKit") && !["Chrome/", "Firefox/"].contains(where: userAgent.contains)
    }
}
