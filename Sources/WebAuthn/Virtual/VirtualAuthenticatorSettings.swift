/// How the virtual authenticator behaves: a login script's `passkey:` (SignInFiles reads it),
/// or a Swift test harness's own. Every default is what a real passkey does.
public struct VirtualAuthenticatorSettings: Sendable, Hashable {
    /// How the signature counter moves.
    public enum SignCount: String, Sendable, Hashable, CaseIterable {
        /// Each credential counts its signatures, as a security key does.
        case increment
        /// Always 0, as synced passkeys report.
        case zero
    }

    /// The 0600 file that keeps the credentials from one run to the next; nil keeps them in
    /// memory for this authenticator's life only.
    public var credentialsFile: String?
    /// Whether it says a person was present (UP). A real authenticator always does; false
    /// makes every request fail with `NotAllowedError`, as a person who never touches the key.
    public var userPresence: Bool
    /// Whether it says the person was verified (UV), and so answers `isUserVerifyingPlatformAuthenticatorAvailable` with true.
    public var userVerification: Bool
    /// The algorithm new credentials use; nil: the first of the page's list it has (ES256, EdDSA).
    public var algorithm: COSEAlgorithm?
    /// Whether new credentials are discoverable; nil: as the page asks (`residentKey` preferred or required).
    public var discoverable: Bool?
    /// How the signature counter moves.
    public var signCount: SignCount
    /// The account to sign in as when the page lets any discoverable credential answer and
    /// several of its relying party's are stored (by user name); nil: the newest.
    public var user: String?

    /// Settings with the defaults of a passkey: present, verified, counting, the page's choice of algorithm.
    public init(credentialsFile: String? = nil, userPresence: Bool = true, userVerification: Bool = true, algorithm: COSEAlgorithm? = nil,
                discoverable: Bool? = nil, signCount: SignCount = .increment, user: String? = nil) {
        (self.credentialsFile, self.userPresence, self.userVerification) = (credentialsFile, userPresence, userVerification)
        (self.algorithm, self.discoverable, self.signCount, self.user) = (algorithm, discoverable, signCount, user)
    }
}
