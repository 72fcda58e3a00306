import Foundation

/// What an access token is asked for: the sign-in's own (``signIn``), or narrower scopes and
/// resource servers (RFC 8707) through the refresh grant's `scope` and `resource`. Scopes and
/// resources are sets: their order and repeats make no difference.
public struct AccessTokenTarget: Sendable, Hashable, CustomStringConvertible {
    /// The scopes asked for, sorted; `nil`: as granted at sign-in.
    public let scopes: [String]?
    /// The resource indicators (absolute URIs) asked for, sorted; empty: none.
    public let resources: [String]

    /// A target. Each scope may hold several, space-separated; no scope at all means as granted.
    public init(scopes: [String]? = nil, resources: [String] = []) {
        let split = Set((scopes ?? []).flatMap { $0.split(whereSeparator: \.isWhitespace).map(String.init) })
        self.scopes = split.isEmpty ? nil : split.sorted()
        self.resources = Set(resources).sorted()
    }

    /// The sign-in's own access token: its scopes as granted, no resource.
    public static let signIn = AccessTokenTarget()

    /// Whether this is the sign-in's own access token.
    public var isSignIn: Bool { self == .signIn }

    /// The key of this target's token in ``AuthState/scopedAccessTokens``: the refresh grant's
    /// parameters, form-encoded (`scope=a+b&resource=…`).
    public var key: String {
        FormURLEncoding.encode((scopes.map { [("scope", $0.joined(separator: " "))] } ?? []) + resources.map { ("resource", $0) })
    }

    public var description: String {
        let parts = (scopes.map { ["scope '\($0.joined(separator: " "))'"] } ?? []) + resources.map { "resource \($0)" }
        return parts.isEmpty ? "the sign-in's scopes" : parts.joined(separator: ", ")
    }
}
