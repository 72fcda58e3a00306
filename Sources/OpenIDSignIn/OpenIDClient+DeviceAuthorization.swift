import Foundation
import OpenIDConnect

extension OpenIDClient {
    /// Signs in with the device authorization grant (RFC 8628), for a person with no display
    /// here (SSH, a headless box) or a kiosk's "sign in with your phone": the provider issues a
    /// user code, the person enters it at the verification URI on another device, and the
    /// returned sequence polls until they approve. Iterate it for a UI:
    ///
    /// ```swift
    /// for try await state in try await client.deviceAuthorization(scopes: ["openid", "profile"]) {
    ///     if case .codeIssued(let code) = state { print(QRCode(code.uriForQRCode.absoluteString)?.terminalText ?? "", code.userCode) }
    ///     if case .authorized(let signedIn) = state { try store.save(signedIn) }
    /// }
    /// ```
    /// An ID token, when the provider issues one, is validated like any sign-in's.
    /// - Parameters:
    ///   - scopes: the scopes to ask for (`openid` for an ID token).
    ///   - additionalParameters: more parameters for the device authorization request.
    ///   - endpoint: the device authorization endpoint, for a provider whose discovery document
    ///     does not list it; it is subject to the same https rule as the others.
    /// - Throws: `DeviceAuthorizationError.noEndpoint(issuer:)`; discovery's errors as
    ///   `DeviceAuthorizationError.openIDConnect(_:)`.
    public func deviceAuthorization(scopes: [String] = ["openid"], additionalParameters: [String: String] = [:],
                                    endpoint: URL? = nil) async throws(DeviceAuthorizationError) -> DeviceAuthorizationStates {
        var configuration = try await mapping(await providerConfiguration(), as: DeviceAuthorizationError.openIDConnect)
        if let endpoint {
            configuration.deviceAuthorizationEndpoint = endpoint
            try await mapping(try configuration.checkTransportSecurity(allowInsecureHTTP: allowInsecureHTTP), as: DeviceAuthorizationError.openIDConnect)
        }
        return try DeviceAuthorization(configuration: configuration, clientID: clientID, authentication: authentication,
                                       idTokenSigning: idTokenSigning, http: http)
            .states(scopes: scopes, additionalParameters: additionalParameters)
    }
}
