/// How a client registered its ID tokens to be signed (`id_token_signed_response_alg`, OpenID
/// Connect Dynamic Client Registration 1.0 §2): one algorithm, which every ID token must then
/// use, or `none`. A client that names nothing accepts any asymmetric algorithm, and HMAC only
/// when it has a client secret.
public enum IDTokenSigning: Sendable, Hashable, Codable, RawRepresentable, CustomStringConvertible {
    /// Signed with this algorithm, and no other.
    case algorithm(SignatureAlgorithm)
    /// Unsigned (`alg: none`): accepted only from the token endpoint over https in the code flow
    /// (Core §3.1.3.7), never from the front channel or over plain http.
    case unsigned

    /// The registration value: an algorithm's name, or `none`.
    public var rawValue: String {
        switch self {
        case .algorithm(let algorithm): algorithm.rawValue
        case .unsigned: "none"
        }
    }

    /// The choice `rawValue` names, exactly as registered (`RS256`, `HS256`, `none`...).
    public init?(rawValue: String) {
        if rawValue == "none" { self = .unsigned } else if let algorithm = SignatureAlgorithm(rawValue: rawValue) {
            self = .algorithm(algorithm)
        } else {
            return nil
        }
    }

    /// Every name a client may register.
    public static var names: [String] { SignatureAlgorithm.allCases.map(\.rawValue) + ["none"] }

    /// The registration value.
    public var description: String { rawValue }
}

/// Where an ID token was received, which decides whether an unsigned one may be accepted
/// (OpenID Connect Core §3.1.3.7, item 6).
public enum IDTokenSource: Sendable, Hashable {
    /// The token endpoint's answer in the code flow: to the code exchange, or to a refresh.
    case codeFlowTokenEndpoint
    /// Anywhere else: the authorization response (implicit and hybrid flows), the hybrid flow's
    /// token endpoint, the device grant.
    case other
}
