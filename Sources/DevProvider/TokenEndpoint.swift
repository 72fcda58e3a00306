import Foundation
import OpenIDConnect

/// `POST /token`: the code exchange (the code redeemed at the ``AuthorizationEndpoint``), refresh
/// with rotation, narrower scopes and resource indicators (RFC 8707), and device-code polls
/// (answered by the ``DeviceAuthorizationEndpoint``); client authentication, DPoP proofs, and the
/// faults that break the endpoint itself (a server error, a hang, an HTML error page).
final class TokenEndpoint: Sendable {
    private let context: ProviderContext
    private let authenticator: ClientAuthenticator
    private let dpop: DPoPProofChecker
    private let ledger: TokenLedger
    private let issuer: TokenIssuer
    private let authorization: AuthorizationEndpoint
    private let device: DeviceAuthorizationEndpoint
    private let counter: RequestCounter
    /// Requests held by ``ProviderFault/hangingTokenEndpoint`` until the provider stops.
    private let held = HeldRequests()

    init(context: ProviderContext, authenticator: ClientAuthenticator, dpop: DPoPProofChecker, ledger: TokenLedger, issuer: TokenIssuer,
         authorization: AuthorizationEndpoint, device: DeviceAuthorizationEndpoint, counter: RequestCounter) {
        (self.context, self.authenticator, self.dpop, self.ledger) = (context, authenticator, dpop, ledger)
        (self.issuer, self.authorization, self.device, self.counter) = (issuer, authorization, device, counter)
    }

    /// Answers the requests it holds, and every later one, at once: the provider is stopping.
    func releaseHeldRequests() { held.releaseAll() }

    /// `POST /token`.
    func respond(to request: LocalHTTPRequest) async -> LocalHTTPResponse {
        let form = ProviderForm.fields(request.body)
        let grantType = form["grant_type"] ?? ""
        counter.count("/token#" + grantType)
        if context.has(.serverError) { return LocalHTTPResponse(status: 500, headers: ["Content-Type": "text/plain"], body: "Internal Server Error") }
        if context.has(.hangingTokenEndpoint) {
            await held.hold()
            return LocalHTTPResponse(status: 503, body: "the provider stopped")
        }
        if context.has(.htmlErrorPage) {
            return .html(LoginPage.message(title: "502 Bad Gateway", "The upstream server is not answering."), status: 502)
        }
        guard let clientID = await authenticator.clientID(of: request, form: form) else {
            return .oauthError("invalid_client", "client authentication failed", status: 401)
        }
        if context.has(.invalidGrant) { return .oauthError("invalid_grant", "the grant was revoked (injected fault)") }
        let proof = await dpop.check(request, method: "POST", url: context.issuer + "/token")
        if let refusal = DPoPProofChecker.tokenEndpointRefusal(proof) { return refusal }
        let jkt: String? = if case .proven(let jkt) = proof { jkt } else { nil }
        var grant: Grant
        var requested = TokenIssuer.RequestedAccess()
        switch grantType {
        case "authorization_code":
            guard let found = authorization.redeem(code: form["code"] ?? ""), found.clientID == clientID,
                  found.redirectURI == form["redirect_uri"],
                  let verifier = form["code_verifier"], PKCE.challenge(for: verifier) == found.codeChallenge else {
                return .oauthError("invalid_grant", "the code is unknown, used, or not bound to this client, redirect URI and verifier")
            }
            grant = found
        case "refresh_token":
            let resources = ProviderForm.all(request.body).filter { $0.name == "resource" }.map(\.value)
            if let invalid = resources.first(where: { !Self.isResourceIndicator($0) }) {
                return .oauthError("invalid_target", "the resource \(invalid) is not an absolute URI without a fragment")
            }
            let asked = form["scope"].map { Set($0.split(separator: " ").map(String.init)) }
            switch ledger.redeem(refreshToken: form["refresh_token"] ?? "", clientID: clientID, jkt: jkt, scope: asked) {
            case .success(let found): grant = found
            case .failure(.unknown): return .oauthError("invalid_grant", "the refresh token is unknown, used or revoked")
            case .failure(.otherDPoPKey): return .oauthError("invalid_dpop_proof", "the refresh token is bound to another DPoP key")
            case .failure(.widerScope): return .oauthError("invalid_scope", "a refresh may narrow the granted scope, never widen it")
            }
            requested = TokenIssuer.RequestedAccess(scope: asked.map { $0.sorted().joined(separator: " ") }, audiences: resources)
        case DeviceAuthorization.grantType:
            switch device.poll(deviceCode: form["device_code"] ?? "", clientID: clientID) {
            case .failure(let refusal): return .oauthError(refusal.code, refusal.description)
            case .success(let approved): return await issuer.tokens(for: approved, includeNonce: false)
            }
        default:
            return .oauthError("unsupported_grant_type", nil)
        }
        grant.jkt = jkt ?? grant.jkt
        return await issuer.tokens(for: grant, includeNonce: grantType == "authorization_code", requested)
    }

    /// RFC 8707 §2: a resource is an absolute URI with no fragment.
    static func isResourceIndicator(_ value: String) -> Bool {
        guard let components = URLComponents(string: value) else { return false }
        return components.scheme != nil && components.fragment == nil
    }
}
