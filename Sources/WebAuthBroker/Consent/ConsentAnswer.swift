/// The person's answer to "may this app use this account?", remembered.
public struct ConsentAnswer: Sendable, Hashable, Codable {
    /// The app, as ``CallerApplication/id`` names it.
    public let app: String
    /// The account.
    public let account: String
    /// Allowed, or denied.
    public let allowed: Bool

    /// The answer `allowed` for `app` and `account`.
    public init(app: String, account: String, allowed: Bool) {
        self.app = app
        self.account = account
        self.allowed = allowed
    }
}
