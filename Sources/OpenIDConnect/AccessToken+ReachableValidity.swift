extension AccessToken {
    /// `wanted`, or when the provider's tokens live less than that (`lifetime` seconds), what a
    /// refresh can give: such a token is refreshed once it has used a minute (at most half) of its
    /// life, instead of on every call, which would spend a refresh for nothing fresher. `webauth
    /// token --min-valid` and the broker's `min_valid` are capped so.
    public static func reachableValidity(_ wanted: Duration, lifetime: Int?) -> Duration {
        guard let lifetime, lifetime > 0, wanted > .seconds(lifetime) else { return wanted }
        return .seconds(lifetime - min(60, lifetime / 2))
    }
}
