import Foundation
import OpenIDConnect

/// WebFinger (RFC 7033) for issuer discovery (OpenID Connect Discovery 1.0 §2):
/// `GET /.well-known/webfinger?resource=…&rel=…` names this provider as the issuer of its users.
/// A resource is one of its users when it is `acct:NAME@HOST` (NAME a user's name, or its e-mail
/// address's local part) or a URL whose user or last path segment is a user's name; any other is
/// answered `404`. Under ``ProviderFault/webFingerWithoutIssuer`` the answer names only a profile page.
struct WebFingerEndpoint: Sendable {
    let context: ProviderContext

    /// `GET /.well-known/webfinger`.
    func respond(to request: LocalHTTPRequest) -> LocalHTTPResponse {
        let pairs = ProviderForm.all(request.query)
        guard let resource = pairs.first(where: { $0.name == "resource" })?.value, !resource.isEmpty else {
            return LocalHTTPResponse(status: 400, body: "resource is required")
        }
        guard let user = user(named: resource) else { return LocalHTTPResponse(status: 404, body: "no such resource") }
        let issuer = context.issuer
        var links: [JSONValue] = [.object(["rel": .string("http://webfinger.net/rel/profile-page"), "href": .string(issuer + "/account?user=" + user.username)])]
        if !context.has(.webFingerWithoutIssuer) {
            links.append(.object(["rel": .string(WebFingerQuery.issuerRelation), "href": .string(issuer)]))
        }
        // RFC 7033 §4.3: with rel given, only the links of those relations.
        let relations = Set(pairs.filter { $0.name == "rel" }.map(\.value))
        if !relations.isEmpty { links = links.filter { relations.contains($0["rel"]?.stringValue ?? "") } }
        return LocalHTTPResponse(headers: ["Content-Type": "application/jrd+json", "Access-Control-Allow-Origin": "*"],
                                 body: JSONValue.object(["subject": .string(resource), "links": .array(links)]).description)
    }

    /// The user `resource` names, if any.
    private func user(named resource: String) -> DevProviderConfiguration.User? {
        let name: Substring?
        if resource.lowercased().hasPrefix("acct:") {
            name = resource.dropFirst(5).split(separator: "@").first
        } else if let url = URLComponents(string: resource) {
            name = url.user.map { Substring($0) } ?? url.path.split(separator: "/").last
        } else {
            name = nil
        }
        guard let name else { return nil }
        return context.configuration.users.first { $0.username == name || $0.email.split(separator: "@").first == name }
    }
}
