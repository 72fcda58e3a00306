import Foundation
import OpenIDConnect

/// The options of `SignIn`, decoded and checked (see docs/dbus/org.webauthsession.Broker1.xml).
public struct SignInOptions: Sendable, Hashable {
    /// The provider's issuer URL; needed for a new account.
    public var issuer: String?
    /// The client ID; needed for a new account.
    public var clientID: String?
    /// The redirect URI, checked.
    public var redirectURI: String?
    /// The scopes, each a single scope.
    public var scopes: [String]?
    /// Extra authorization parameters.
    public var parameters: [String: String]
    /// The account.
    public var account: String
    /// The provider's `login_hint`.
    public var loginHint: String?
    /// The provider's `prompt`.
    public var prompt: String?
    /// How long the whole sign-in may take.
    public var timeout: Duration?
    /// The caller's token for the request's handle.
    public var handleToken: String?
    /// The login script, as text or an open file; the broker accepts it only when started with `--allow-scripts`.
    public var script: ScriptSource?

    /// Decodes `options`.
    /// - Throws: ``BrokerError`` (``BrokerErrorName/invalidArgument``) for an unknown option, a
    ///   wrong type, a value out of range or too long.
    public init(_ options: [String: BusValue]) throws(BrokerError) {
        var reader = BusOptions(options)
        issuer = try reader.string("issuer").map { text throws(BrokerError) in try Self.httpURL(text, "issuer") }
        clientID = try reader.string("client_id")
        if clientID?.isEmpty == true { throw .invalidArgument("option 'client_id' is empty") }
        redirectURI = try reader.string("redirect_uri")
        if let redirectURI {
            do { _ = try RedirectURI(redirectURI) } catch { throw .invalidArgument("option 'redirect_uri' cannot be used: \(error)") }
        }
        scopes = try reader.strings("scopes")?.flatMap { $0.split(separator: " ").map(String.init) }
        parameters = try reader.stringMap("parameters") ?? [:]
        account = try AccountName.checked(reader.string("account") ?? AccountName.standard)
        loginHint = try reader.string("login_hint")
        prompt = try reader.string("prompt")
        timeout = try RequestTimeout.decode(reader.uint32("timeout"))
        handleToken = try reader.string("handle_token").map { token throws(BrokerError) in try RequestHandle.checkedToken(token) }
        script = try ScriptSource.read(&reader)
        try reader.finish()
    }

    /// `text` if it is an http(s) URL with a host.
    static func httpURL(_ text: String, _ key: String) throws(BrokerError) -> String {
        guard let url = URLComponents(string: text), ["https", "http"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false else {
            throw .invalidArgument("option '\(key)' must be an http(s) URL with a host")
        }
        return text
    }

    /// The authorization parameters the options ask for: `parameters`, then `login_hint` and `prompt`.
    public var authorizationParameters: [String: String] {
        var all = parameters
        if let loginHint { all["login_hint"] = loginHint }
        if let prompt { all["prompt"] = prompt }
        return all
    }
}
