/// Why a DPoP-bound request (RFC 9449) failed on the client's side.
public enum DPoPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server asked for a new nonce (`use_dpop_nonce`) again right after the client retried
    /// with the one it gave: a server whose nonces never settle. Try again later, or report it.
    case nonceRefused(url: String)
    /// The system's crypto could not sign the proof.
    case signingFailed(String)
    /// The saved sign-in has no DPoP key: its tokens are bearer tokens. Sign in again with DPoP.
    case notBound

    public var description: String {
        switch self {
        case .nonceRefused(let url): "\(url) asked for a new DPoP nonce again after the retry with its nonce: its nonces do not settle"
        case .signingFailed(let message): "a DPoP proof could not be signed: \(message)"
        case .notBound: "the sign-in is not DPoP-bound (its tokens are bearer tokens): sign in again with DPoP"
        }
    }
}
