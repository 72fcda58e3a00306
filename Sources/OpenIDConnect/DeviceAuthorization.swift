import Foundation

/// The OAuth 2.0 device authorization grant (RFC 8628), for a session with no browser a person
/// can use (SSH, a CI box, a kiosk's second way in): the provider issues a user code, the person
/// enters it at the verification URI on their phone or another computer and signs in there,
/// while this client polls the token endpoint at the interval the provider asks for.
///
/// ```swift
/// let grant = try DeviceAuthorization(configuration: configuration, clientID: "my-app")
/// for try await state in grant.states(scopes: ["openid", "profile"]) {
///     switch state {
///     case .codeIssued(let code): show(code.userCode, at: code.verificationURI, qr: code.uriForQRCode)
///     case .authorized(let signedIn): save(signedIn)
///     case .expired, .denied: showStartAgain()
///     case .waiting, .slowedDown: break
///     }
/// }
/// ```
/// An ID token that comes with the tokens is validated like any sign-in's (signature, `iss`,
/// `aud`, `exp`); a provider may issue none (an OAuth-only device grant).
public struct DeviceAuthorization: Sendable {
    /// The token endpoint's `grant_type` for polls.
    public static let grantType = "urn:ietf:params:oauth:grant-type:device_code"

    /// The provider; its ``ProviderConfiguration/deviceAuthorizationEndpoint`` is the one used.
    public let configuration: ProviderConfiguration
    /// This client's ID.
    public let clientID: String
    /// How this client authenticates at the device authorization and token endpoints.
    public let authentication: ClientAuthentication
    /// The client's `id_token_signed_response_alg`, if it registered one (an unsigned token is never
    /// accepted here: this is not the code flow).
    public let idTokenSigning: IDTokenSigning?
    private let endpoint: URL
    private let http: any HTTPClient

    /// A grant for `configuration`'s provider.
    /// - Throws: ``DeviceAuthorizationError/noEndpoint(issuer:)`` when the configuration has no
    ///   device authorization endpoint.
    public init(configuration: ProviderConfiguration, clientID: String, authentication: ClientAuthentication = .none,
                idTokenSigning: IDTokenSigning? = nil, http: any HTTPClient) throws(DeviceAuthorizationError) {
        guard let endpoint = configuration.deviceAuthorizationEndpoint else { throw .noEndpoint(issuer: configuration.issuer) }
        self.configuration = configuration
        self.clientID = clientID
        self.authentication = authentication
        self.idTokenSigning = idTokenSigning
        self.endpoint = endpoint
        self.http = http
    }

    private var tokenEndpoint: TokenEndpoint {
        TokenEndpoint(configuration: configuration, clientID: clientID, authentication: authentication, http: http)
    }

    /// The grant from its code to its end, one state at a time; the sequence ends after a final
    /// state (``DeviceAuthorizationState/isFinal``). It polls only while it is iterated.
    public func states(scopes: [String], additionalParameters: [String: String] = [:]) -> DeviceAuthorizationStates {
        DeviceAuthorizationStates(grant: self, scopes: scopes, additionalParameters: additionalParameters)
    }

    /// Asks the provider for a device code and a user code (RFC 8628 §3.1). The verification
    /// URIs must be https (or http to a loopback host); the user code and the URIs come without
    /// control characters (``DeviceCode``).
    /// - Throws: ``DeviceAuthorizationError/refused(_:)``, ``DeviceAuthorizationError/insecureVerificationURI(_:)``, or ``DeviceAuthorizationError/openIDConnect(_:)``
    ///   for the transport and answers that are not the protocol's.
    public func requestCode(scopes: [String], additionalParameters: [String: String] = [:]) async throws(DeviceAuthorizationError) -> DeviceCode {
        var form: [(name: String, value: String)] = []
        if !scopes.isEmpty { form.append(("scope", scopes.joined(separator: " "))) }
        form += additionalParameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let response: HTTPResponse
        do { response = try await tokenEndpoint.post(form, to: endpoint) } catch { throw .openIDConnect(error) }
        guard response.status == 200 else {
            switch TokenEndpoint.error(from: response, url: endpoint) {
            case .token(let oauth): throw .refused(oauth)
            case let other: throw .openIDConnect(other)
            }
        }
        var code: DeviceCode
        do { code = try JSONResponse.decode(DeviceCode.self, from: response, url: endpoint) } catch { throw .openIDConnect(error) }
        try code.checkVerificationURIs(issuer: configuration.issuer)
        code.issuedAt = Date()
        return code
    }

    /// Polls the token endpoint once (RFC 8628 §3.4, §3.5) for `code`, which is polled every
    /// `interval` now. A pending answer is ``DeviceAuthorizationState/waiting(interval:)`` (or
    /// ``DeviceAuthorizationState/expired`` once the code's lifetime has passed), `slow_down` is
    /// ``DeviceAuthorizationState/slowedDown(interval:)`` with 5 s more, and the tokens are
    /// ``DeviceAuthorizationState/authorized(_:)`` with the ID token, if any, validated.
    /// - Throws: ``DeviceAuthorizationError/openIDConnect(_:)`` for any other error.
    public func poll(_ code: DeviceCode, interval: Duration) async throws(DeviceAuthorizationError) -> DeviceAuthorizationState {
        let tokens: TokenResponse
        do {
            tokens = try await tokenEndpoint.exchange(deviceCode: code.deviceCode)
        } catch .token(let oauth) where oauth.error == "authorization_pending" {
            return Date() >= code.expiresAt ? .expired : .waiting(interval: interval)
        } catch .token(let oauth) where oauth.error == "slow_down" {
            return .slowedDown(interval: interval + .seconds(5))
        } catch .token(let oauth) where oauth.error == "expired_token" {
            return .expired
        } catch .token(let oauth) where oauth.isAccessDenied {
            return .denied(oauth)
        } catch {
            throw .openIDConnect(error)
        }
        var idToken: IDToken?
        if let raw = tokens.idToken {
            let validator: IDTokenValidator
            do { validator = try IDTokenValidator(configuration: configuration, clientID: clientID, clientSecret: authentication.secret,
                                                 signing: idTokenSigning, http: http) } catch {
                throw .openIDConnect(error)
            }
            do { idToken = try await validator.validate(raw, nonce: nil) } catch { throw .openIDConnect(.idToken(error)) }
        }
        return .authorized(AuthState(configuration: configuration, clientID: clientID, authorizationResponse: nil,
                                     tokenResponse: tokens, idToken: idToken))
    }
}

/// The states of one device authorization grant (``DeviceAuthorization/states(scopes:additionalParameters:)``):
/// the code, then a state per poll, until a final one.
public struct DeviceAuthorizationStates: AsyncSequence, Sendable {
    public typealias Element = DeviceAuthorizationState
    public typealias Failure = DeviceAuthorizationError

    let grant: DeviceAuthorization
    let scopes: [String]
    let additionalParameters: [String: String]

    public func makeAsyncIterator() -> Iterator {
        Iterator(grant: grant, scopes: scopes, additionalParameters: additionalParameters)
    }

    /// Requests the code on the first call, then sleeps the interval and polls on each.
    public struct Iterator: AsyncIteratorProtocol {
        let grant: DeviceAuthorization
        let scopes: [String]
        let additionalParameters: [String: String]
        private var code: DeviceCode?
        private var interval: Duration = .seconds(5)
        private var finished = false

        init(grant: DeviceAuthorization, scopes: [String], additionalParameters: [String: String]) {
            self.grant = grant
            self.scopes = scopes
            self.additionalParameters = additionalParameters
        }

        /// The next state, or `nil` after a final one.
        /// - Throws: ``DeviceAuthorizationError``; ``DeviceAuthorizationError/cancelled`` when the task is cancelled.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(DeviceAuthorizationError) -> DeviceAuthorizationState? {
            guard !finished else { return nil }
            do {
                let state = try await step(isolation: actor)
                finished = state.isFinal
                return state
            } catch {
                finished = true
                throw error
            }
        }

        /// ``next(isolation:)`` from no actor.
        public mutating func next() async throws(DeviceAuthorizationError) -> DeviceAuthorizationState? {
            try await next(isolation: nil)
        }

        private mutating func step(isolation actor: isolated (any Actor)?) async throws(DeviceAuthorizationError) -> DeviceAuthorizationState {
            if Task.isCancelled { throw .cancelled }
            guard let code else {
                let issued = try await grant.requestCode(scopes: scopes, additionalParameters: additionalParameters)
                code = issued
                interval = .seconds(issued.interval)
                return .codeIssued(issued)
            }
            do { try await Task.sleep(for: interval) } catch { throw .cancelled }
            let state = try await grant.poll(code, interval: interval)
            if case .slowedDown(let slower) = state { interval = slower }
            return state
        }
    }
}
