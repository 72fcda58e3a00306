import Foundation

/// The options of `GetToken`, decoded and checked (see docs/dbus/org.webauthsession.Broker1.xml).
public struct TokenOptions: Sendable, Hashable {
    /// The account.
    public var account: String
    /// How long the token must stay valid; `nil`: the broker's default.
    public var minimumValidity: Duration?
    /// A narrower token for these scopes alone.
    public var scopes: [String]?
    /// A token for these resource servers (RFC 8707), absolute URIs without a fragment.
    public var resources: [String]

    /// Decodes `options`.
    /// - Throws: ``BrokerError`` (``BrokerErrorName/invalidArgument``) as ``SignInOptions/init(_:)``.
    public init(_ options: [String: BusValue]) throws(BrokerError) {
        var reader = BusOptions(options)
        account = try AccountName.checked(reader.string("account") ?? AccountName.standard)
        minimumValidity = try reader.uint32("min_valid").map { .seconds($0) }
        scopes = try reader.strings("scopes")?.flatMap { $0.split(separator: " ").map(String.init) }
        if scopes?.isEmpty == true { scopes = nil }
        resources = try reader.strings("resource") ?? []
        if resources.contains(where: { URLComponents(string: $0).map { $0.scheme == nil || $0.fragment != nil } ?? true }) {
            throw .invalidArgument("option 'resource' must hold absolute URIs without a fragment, such as https://api.example.com")
        }
        try reader.finish()
    }
}
