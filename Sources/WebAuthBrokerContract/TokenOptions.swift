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

    /// The options of a `GetToken` for `account`, as ``busOptions`` sends them.
    public init(account: String, minimumValidity: Duration? = nil, scopes: [String]? = nil, resources: [String] = []) {
        self.account = account
        self.minimumValidity = minimumValidity
        self.scopes = scopes
        self.resources = resources
    }

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

    /// The `a{sv}` a caller sends: what ``init(_:)`` decodes back to these options (`min_valid` in
    /// whole seconds, rounded up).
    public var busOptions: [String: BusValue] {
        var options: [String: BusValue] = ["account": .string(account)]
        if let minimumValidity {
            let (seconds, fraction) = minimumValidity.components
            options["min_valid"] = .uint32(UInt32(clamping: seconds + (fraction > 0 ? 1 : 0)))
        }
        if let scopes { options["scopes"] = .strings(scopes) }
        if !resources.isEmpty { options["resource"] = .strings(resources) }
        return options
    }
}
