import OpenIDConnect

/// `GET /userinfo`: the claims of the person a `Bearer` token was issued for, or a DPoP-bound
/// token's presented as `DPoP` with a proof of its key.
struct UserInfoEndpoint: Sendable {
    let context: ProviderContext
    let ledger: TokenLedger
    let dpop: DPoPProofChecker

    /// `GET /userinfo`.
    func respond(to request: LocalHTTPRequest) async -> LocalHTTPResponse {
        if context.has(.serverError) { return LocalHTTPResponse(status: 500, headers: ["Content-Type": "text/plain"], body: "Internal Server Error") }
        let authorization = request.header("Authorization") ?? ""
        let scheme = authorization.prefix { $0 != " " }
        let token = String(authorization.dropFirst(scheme.count + 1))
        let issued = ledger.accessToken(token)
        let refused = LocalHTTPResponse(status: 401, headers: ["WWW-Authenticate": #"\#(issued?.jkt == nil ? "Bearer" : "DPoP") error="invalid_token""#])
        if let binding = issued?.jkt {
            guard scheme == "DPoP" else { return refused }
            switch await dpop.check(request, method: "GET", url: context.issuer + "/userinfo", accessToken: token) {
            case .proven(let jkt) where jkt == binding: break
            case .nonceRequired(let nonce):
                return LocalHTTPResponse(status: 401, headers: ["WWW-Authenticate": #"DPoP error="use_dpop_nonce""#, "DPoP-Nonce": nonce])
            default: return refused
            }
        } else if scheme != "Bearer" {
            return refused
        }
        guard let subject = issued?.subject, let user = context.user(subject: subject) else { return refused }
        // ProviderFault.userinfoOtherSubject: another person's claims, as a provider that mixed up its sessions would answer.
        let other = context.has(.userinfoOtherSubject) ? context.configuration.users.first { $0.subject != user.subject } : nil
        return .json(.object(["sub": .string((other ?? user).subject), "name": .string(user.name), "email": .string(user.email),
                              "preferred_username": .string(user.username)]))
    }
}
