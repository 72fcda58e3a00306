/// A fault the development provider can inject, so tests can see how a client copes.
public enum ProviderFault: String, Sendable, Hashable, Codable, CaseIterable {
    /// After a successful login the authorization endpoint answers `access_denied`, as if the person clicked Deny;
    /// device-code polls answer `access_denied` too.
    case deny
    /// Every response waits ``DevProviderConfiguration/slowResponseSeconds`` first.
    case slow
    /// The token endpoint answers every grant with `invalid_grant`.
    case invalidGrant = "invalid-grant"
    /// The token and userinfo endpoints answer `500 Internal Server Error`.
    case serverError = "server-error"
    /// The token endpoint answers `502` with an HTML error page, as a broken proxy would.
    case htmlErrorPage = "html-error-page"
    /// The token endpoint's answer is cut off halfway, its access token included (a connection
    /// dropped by a proxy): the client must fail without quoting it.
    case truncatedTokenResponse = "truncated-token-response"
    /// The token endpoint never answers (until the provider stops), as a hung upstream would:
    /// the client's own timeout must end the wait.
    case hangingTokenEndpoint = "hanging-token-endpoint"
    /// The end-session endpoint first asks "Do you want to sign out?" (`#sign-out` or `#stay`),
    /// as real providers do for RP-initiated logout; only "Sign out" ends the session and
    /// redirects back.
    case confirmSignOut = "confirm-sign-out"
    /// Authorization responses carry a wrong `iss` (a mix-up attack, RFC 9207).
    case wrongIssuer = "wrong-issuer"
    /// ID tokens expired an hour ago.
    case expiredIDToken = "expired-id-token"
    /// ID tokens report a login an hour before they were issued (`auth_time`), as a provider that
    /// ignores `max_age` or `prompt=login` would.
    case staleAuthTime = "stale-auth-time"
    /// ID tokens are signed with another key under the published `kid`.
    case badIDTokenSignature = "bad-id-token-signature"
    /// The JWKS also publishes keys a client must pass over (RFC 7517 §5, OpenID Connect Core
    /// §10.1): an RSA encryption key (`RSA-OAEP-256`) under the signing key's own `kid`, a P-256
    /// key for encryption (`use: enc`, no `kid`), a P-256 key whose `key_ops` are `wrapKey` only,
    /// a symmetric `oct` key and an EC key on a curve nobody here reads (secp256k1).
    case extraJWKSKeys = "extra-jwks-keys"
    /// ID tokens carry no `kid`: the client must find the one key that can verify them.
    case idTokenWithoutKeyID = "id-token-without-kid"
    /// ID tokens are signed HS256 with the client secret's octets (Core §10.1; a public client's
    /// with an empty key, which it must refuse).
    case hmacIDTokens = "hs256-id-tokens"
    /// ID tokens are unsigned (`alg: none`), as for a client registered with
    /// `id_token_signed_response_alg: none`.
    case unsignedIDTokens = "unsigned-id-tokens"
    /// The login page refuses embedded web views, as Google does: a user agent with `AppleWebKit`
    /// but no `Chrome/` or `Firefox/` token (WebKitGTK's own) gets a `403 disallowed_useragent` page.
    case disallowedUserAgent = "disallowed-useragent"
    /// The first poll of each device code answers `slow_down` (RFC 8628 §3.5): the client must
    /// wait 5 s more from then on, or its next poll, too early, is slowed down again.
    case slowDown = "slow-down"
    /// Device-code polls answer `expired_token`, as when the person took too long.
    case expiredDeviceCode = "expired-device-code"
    /// The device authorization response names a plain-http verification page on another host
    /// (`http://device.phish.invalid/device`): the client must refuse to send anyone there.
    case insecureVerificationURI = "insecure-verification-uri"
    /// The device authorization response is hostile: its https verification page is on another
    /// site (`device.phish.invalid`), and it and the user code carry terminal escape sequences
    /// (clear screen, window title, a C1 CSI, BEL). The client must warn and show no control character.
    case hostileVerificationURI = "hostile-verification-uri"
    /// DPoP proofs must carry the provider's nonce (RFC 9449 §8, §9): one without it is answered
    /// `use_dpop_nonce` with the nonce in `DPoP-Nonce`, and the client must retry with it.
    case dpopNonce = "dpop-nonce"
    /// Every DPoP proof is answered `use_dpop_nonce` with a new nonce, as a server whose nonces
    /// never settle: the client must give up after one retry.
    case dpopNonceLoop = "dpop-nonce-loop"
    /// Access tokens end in a line of their own (`\nquit=1`), as a hostile provider's would, to
    /// inject attributes into a line protocol (git's credential helpers) that prints them.
    case injectingAccessToken = "injecting-access-token"
    /// Access tokens hold a space: printable ASCII, but not RFC 6750's `b64token` (an opaque format
    /// some providers use), which `webauth env` warns about and still prints.
    case spacedAccessToken = "spaced-access-token"
    /// WebFinger (`/.well-known/webfinger`) answers for its users with a profile page only, no
    /// OpenID Connect issuer link: the client must say so, not guess an issuer.
    case webFingerWithoutIssuer = "webfinger-without-issuer"
    /// UserInfo answers with another user's `sub` than the access token's (and the ID token's):
    /// the client must refuse the claims (OpenID Connect Core §5.3.2).
    case userinfoOtherSubject = "userinfo-other-subject"
}
