import Foundation
import OpenIDConnect
import OpenIDConnectURLSession

/// A person's phone for the development provider's device verification page, over plain HTTP:
/// the user code, the password form, then Allow or Deny, as the page's forms post them.
public struct DevicePhone: Sendable {
    private let http = URLSessionHTTPClient()

    public init() {}

    /// Enters `userCode` at `verificationURI`, signs in as `username`, and allows (or denies) the
    /// device. Returns the last page's HTML.
    public func approve(_ userCode: String, at verificationURI: URL, username: String = "alice", password: String = "wonderland",
                        allow: Bool = true) async throws -> String {
        let entered = try await post(verificationURI, ["step": "user_code", "user_code": userCode])
        guard [302, 303].contains(entered.status), let location = entered.headers["location"],
              let login = URL(string: location, relativeTo: verificationURI)?.absoluteURL else {
            throw DevicePhoneError.unexpectedPage(status: entered.status, text(entered))
        }
        let consent = try await post(login, ["step": "password", "username": username, "password": password])
        let page = text(consent)
        guard consent.status == 200, let interaction = page.firstMatch(of: /name="interaction" value="([^"]+)"/)?.1 else {
            throw DevicePhoneError.unexpectedPage(status: consent.status, page)
        }
        let decided = try await post(login, ["step": "consent", "interaction": String(interaction), "decision": allow ? "allow" : "deny"])
        return text(decided)
    }

    private func post(_ url: URL, _ fields: [String: String]) async throws -> HTTPResponse {
        let body = fields.sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")
        return try await http.send(HTTPRequest(method: "POST", url: url, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                               body: Data(body.utf8)))
    }

    private func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }
}

/// The verification page did not answer as a person's phone expects.
public enum DevicePhoneError: Error, CustomStringConvertible {
    case unexpectedPage(status: Int, String)

    public var description: String {
        switch self {
        case .unexpectedPage(let status, let page): "unexpected page (HTTP \(status)): \(page.prefix(300))"
        }
    }
}
