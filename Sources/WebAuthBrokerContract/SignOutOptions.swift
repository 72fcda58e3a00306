/// The options of `SignOut`, decoded and checked (see docs/dbus/org.webauthsession.Broker1.xml).
public struct SignOutOptions: Sendable, Hashable {
    /// The account.
    public var account: String
    /// How long the whole sign-out may take.
    public var timeout: Duration?
    /// The caller's token for the request's handle.
    public var handleToken: String?
    /// The logout script, as text or an open file; the broker accepts it only when started with `--allow-scripts`.
    public var script: ScriptSource?

    /// Decodes `options`.
    /// - Throws: ``BrokerError`` (``BrokerErrorName/invalidArgument``) as ``SignInOptions/init(_:)``.
    public init(_ options: [String: BusValue]) throws(BrokerError) {
        var reader = BusOptions(options)
        account = try AccountName.checked(reader.string("account") ?? AccountName.standard)
        timeout = try RequestTimeout.decode(reader.uint32("timeout"))
        handleToken = try reader.string("handle_token").map { token throws(BrokerError) in try RequestHandle.checkedToken(token) }
        script = try ScriptSource.read(&reader)
        try reader.finish()
    }
}
