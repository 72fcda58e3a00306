/// `POST /revoke` (RFC 7009): forgets an access or refresh token, and answers 200 whether it was
/// known or not.
struct RevocationEndpoint: Sendable {
    let ledger: TokenLedger

    /// `POST /revoke`.
    func respond(to request: LocalHTTPRequest) -> LocalHTTPResponse {
        ledger.revoke(ProviderForm.fields(request.body)["token"] ?? "")
        return LocalHTTPResponse(status: 200)
    }
}
