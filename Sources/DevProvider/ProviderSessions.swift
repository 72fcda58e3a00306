import Foundation
import WebAuthSupport

/// The people the provider remembers (``DevProviderConfiguration/remembersPeople``), as a deployed
/// provider does: a sign-in that ends at the redirect sets a session cookie that lasts a day, and a later
/// authorization request that carries it signs the same person in with no login page, and with no
/// consent page for a client they allowed in that session, unless it asks `prompt=login` or
/// `prompt=consent`. Ending the session (`/logout`) forgets it.
final class ProviderSessions: Sendable {
    /// One remembered sign-in: who, and the clients they allowed.
    private struct Session: Sendable {
        var subject: String
        var allowedClients: Set<String>
    }

    /// The cookie's name.
    static let cookieName = "webauth_dev_session"

    private let enabled: Bool
    /// Not a `Mutex`: see ``LockedState`` (server threads).
    private let sessions = LockedState([String: Session]())

    init(enabled: Bool) {
        self.enabled = enabled
    }

    /// The person `cookieHeader` remembers, if sessions are on, it names one, and `prompt` does not ask for the login page.
    func subject(cookieHeader: String?, prompt: String?) -> String? {
        guard enabled, !Self.prompts(prompt).contains("login"), let id = Self.sessionID(cookieHeader) else { return nil }
        return sessions.withLock { $0[id]?.subject }
    }

    /// Whether the session in `cookieHeader` holds `clientID`'s consent (and `prompt` does not ask again).
    func allowed(_ clientID: String, cookieHeader: String?, prompt: String?) -> Bool {
        guard enabled, !Self.prompts(prompt).contains("consent"), let id = Self.sessionID(cookieHeader) else { return false }
        return sessions.withLock { $0[id]?.allowedClients.contains(clientID) ?? false }
    }

    /// `response` with the session of `subject` (the one `cookieHeader` names, else a new one)
    /// remembering `clientID`'s consent, and its cookie; `response` itself when sessions are off.
    func remembering(_ subject: String, allowed clientID: String, cookieHeader: String?, in response: LocalHTTPResponse) -> LocalHTTPResponse {
        guard enabled else { return response }
        let id = sessions.withLock { sessions in
            let id = Self.sessionID(cookieHeader).flatMap { sessions[$0]?.subject == subject ? $0 : nil } ?? ProviderForm.randomToken()
            sessions[id, default: Session(subject: subject, allowedClients: [])].allowedClients.insert(clientID)
            return id
        }
        var response = response
        // A day, as a provider's "stay signed in": a cookie without an age would end with the browser's process.
        response.headers["Set-Cookie"] = "\(Self.cookieName)=\(id); Path=/; Max-Age=86400; HttpOnly; SameSite=Lax"
        return response
    }

    /// `response` with the session in `cookieHeader` forgotten and its cookie expired.
    func forgetting(cookieHeader: String?, in response: LocalHTTPResponse) -> LocalHTTPResponse {
        guard enabled, let id = Self.sessionID(cookieHeader) else { return response }
        _ = sessions.withLock { $0.removeValue(forKey: id) }
        var response = response
        response.headers["Set-Cookie"] = "\(Self.cookieName)=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0"
        return response
    }

    /// The session cookie's value in a `Cookie` header.
    private static func sessionID(_ header: String?) -> String? {
        header?.split(separator: ";").lazy.map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix(cookieName + "=") }.map { String($0.dropFirst(cookieName.count + 1)) }
            .flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The values of a `prompt` parameter.
    private static func prompts(_ prompt: String?) -> [Substring] {
        prompt?.split(separator: " ") ?? []
    }
}
