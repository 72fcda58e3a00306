import DevProvider
import Foundation
import OpenIDConnect
import OpenIDSignIn
import Synchronization

/// The test double of ``AuthorizationUserAgent``, against the real development provider over
/// real HTTP: it signs in as alice by posting the provider's password form to the presented URL
/// (or loads an end-session URL), and takes the `Location` it is sent to as the redirect. No
/// page is rendered, which is all that is not real here. It records what it was given.
final class DevProviderUserAgent: AuthorizationUserAgent {
    let languages: [String]
    /// What each call was given, in order.
    let presentations = Mutex<[AuthorizationPresentation]>([])
    /// How many times ``clearWebsiteData()`` ran.
    let clearings = Mutex(0)
    /// What ``present(_:)`` throws instead of presenting, if anything.
    private let failure: AuthorizationUserAgentError?
    private let http = URLSessionHTTPClient()

    init(languages: [String] = [], failure: AuthorizationUserAgentError? = nil) {
        self.languages = languages
        self.failure = failure
    }

    func present(_ presentation: AuthorizationPresentation) async throws(AuthorizationUserAgentError) -> RedirectCallback {
        presentations.withLock { $0.append(presentation) }
        if let failure { throw failure }
        do {
            let answer = switch presentation.purpose {
            case .authorization:
                try await http.send(HTTPRequest(method: "POST", url: presentation.url,
                                                headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                                body: Data("step=password&username=alice&password=wonderland".utf8)))
            case .endSession:
                try await http.send(HTTPRequest(url: presentation.url))
            }
            guard let location = answer.headers["location"] else { throw URLError(.badServerResponse) }
            return try RedirectCallback(url: location, redirectURI: presentation.redirectURI)
        } catch {
            throw .agent(error)
        }
    }

    func clearWebsiteData() async throws(AuthorizationUserAgentError) {
        clearings.withLock { $0 += 1 }
    }
}
