/// Why a saved sign-in needs a new sign-in, in words (for messages and `sign_in_again`).
extension AuthState.ReauthenticationReason: CustomStringConvertible {
    public var description: String {
        switch self {
        case .refreshRejected(let error): "the provider refused the refresh token (\(error))"
        case .noRefreshToken: "the access token has expired and there is no refresh token"
        case .signedOut: "signed out"
        }
    }
}
