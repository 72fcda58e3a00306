/// The kiosk's settings before they were one ``KioskSettings`` value (release 0.x): kept so
/// that code written against them still builds, with a warning that names the new place.
extension KioskStation {
    /// A kiosk for `client` with `allowedHosts` and `idleTimeout`.
    @available(*, deprecated, message: "use init(client:settings:scopes:additionalParameters:) with KioskSettings(allowedHosts:idleTimeout:)")
    public convenience init(client: OpenIDConnectClient, allowedHosts: [String], idleTimeout: Duration = .seconds(120),
                            scopes: [String] = ["openid", "profile"], additionalParameters: [String: String] = [:]) {
        self.init(client: client, settings: KioskSettings(allowedHosts: allowedHosts, idleTimeout: idleTimeout),
                  scopes: scopes, additionalParameters: additionalParameters)
    }

    /// ``KioskSettings/allowedHosts`` of ``settings``.
    @available(*, deprecated, renamed: "settings.allowedHosts")
    public var allowedHosts: [String] {
        get { settings.allowedHosts }
        set { settings.allowedHosts = newValue }
    }

    /// ``KioskSettings/idleTimeout`` of ``settings``.
    @available(*, deprecated, renamed: "settings.idleTimeout")
    public var idleTimeout: Duration {
        get { settings.idleTimeout }
        set { settings.idleTimeout = newValue }
    }

    /// The kiosk's appearance: its ``settings``.
    @available(*, deprecated, renamed: "settings")
    public var appearance: KioskSettings {
        get { settings }
        set { settings = newValue }
    }
}
