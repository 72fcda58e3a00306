import Foundation

/// What an ID token's `auth_time` must show when the authorization request asked for a recent
/// login (`max_age`) or a new one (`prompt=login`), OpenID Connect Core §3.1.2.1: `auth_time` is
/// then required, and checked with the validator's clock skew as leeway.
public struct AuthTimeRequirement: Sendable, Hashable {
    /// The longest time since the person logged in (`max_age`), if asked for.
    public var maxAge: Duration?
    /// The login must not be before this moment (`prompt=login`: when the request was made), if asked for.
    public var notBefore: Date?

    /// A requirement.
    public init(maxAge: Duration? = nil, notBefore: Date? = nil) {
        self.maxAge = maxAge
        self.notBefore = notBefore
    }

    /// Checks `claims`' `auth_time` at `now`, allowing `leeway`.
    /// - Throws: ``IDTokenError/missingClaim(_:)``, ``IDTokenError/authenticationTooOld(authTime:maxAge:now:)``,
    ///   ``IDTokenError/authenticationBeforeRequest(authTime:requestedAt:)``.
    func check(_ claims: [String: JSONValue], now: Date, leeway: Duration) throws(IDTokenError) {
        guard let authTime = claims["auth_time"]?.numberValue else { throw .missingClaim("auth_time") }
        let leeway = Double(leeway.components.seconds)
        if let maxAge {
            let seconds = Double(maxAge.components.seconds)
            guard authTime + seconds + leeway >= now.timeIntervalSince1970 else {
                throw .authenticationTooOld(authTime: Int(authTime), maxAge: Int(seconds), now: Int(now.timeIntervalSince1970))
            }
        }
        if let notBefore {
            guard authTime >= notBefore.timeIntervalSince1970 - leeway else {
                throw .authenticationBeforeRequest(authTime: Int(authTime), requestedAt: Int(notBefore.timeIntervalSince1970))
            }
        }
    }
}
