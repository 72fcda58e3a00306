import Foundation
import OpenIDConnect
import SecretGate
import WebAuthSupport

/// A software authenticator for test harnesses, as Selenium's and Chrome's virtual
/// authenticators are: ES256 and EdDSA credentials, discoverable or not, user presence and
/// verification and a signature counter as its ``VirtualAuthenticatorSettings`` say, attestation
/// `none`, credentials in memory or in a 0600 file so that a registration in one run serves
/// the sign-ins of the next. The engine lets it answer only pages a login script drives (see
/// `SecretGate`); it also answers CTAP2 commands (``CTAP2Responder``), as libfido2 sends them.
public final class VirtualAuthenticator: PasskeyAuthenticator {
    /// How it behaves.
    public let settings: VirtualAuthenticatorSettings
    private let file: VirtualCredentialFile?
    private let memory = LockedState<[VirtualCredential]>([])

    /// An authenticator that behaves as `settings` say; its credentials file, if any, is read now.
    /// - Throws: ``VirtualCredentialFileError`` for a file others can read, a damaged one or one that cannot be read.
    public init(settings: VirtualAuthenticatorSettings = VirtualAuthenticatorSettings()) throws(VirtualCredentialFileError) {
        self.settings = settings
        file = settings.credentialsFile.map { VirtualCredentialFile(path: ($0 as NSString).expandingTildeInPath) }
        _ = try file?.read()
    }

    public var kind: PasskeyAuthenticatorKind { .virtual }

    public var isUserVerifying: Bool { settings.userVerification }

    /// The credentials it holds now (their descriptions never show a key).
    public var credentials: [VirtualCredential] {
        get throws(AuthenticatorError) { try withCredentials { $0 } }
    }

    public func makeCredential(_ request: MakeCredentialRequest) async throws(AuthenticatorError) -> MadeCredential {
        try makeCredentialNow(request)
    }

    public func getAssertion(_ request: GetAssertionRequest) async throws(AuthenticatorError) -> Assertion {
        try getAssertionNow(request)
    }

    /// authenticatorMakeCredential, at once (the CTAP2 responder is synchronous); `verifiedByPIN`
    /// when a software key's PIN verified the user.
    func makeCredentialNow(_ request: MakeCredentialRequest, verifiedByPIN: Bool = false) throws(AuthenticatorError) -> MadeCredential {
        let flags = try confirmation(request.userVerification, verifiedByPIN: verifiedByPIN)
        let algorithm: COSEAlgorithm
        if let chosen = settings.algorithm {
            guard request.algorithms.contains(chosen) else { throw .unsupportedAlgorithm }
            algorithm = chosen
        } else {
            guard let first = request.algorithms.first else { throw .unsupportedAlgorithm }
            algorithm = first
        }
        let discoverable = settings.discoverable ?? (request.residentKey != .discouraged)
        if request.residentKey == .required, !discoverable { throw .residentKeyUnavailable }
        return try withCredentials { (credentials) throws(AuthenticatorError) in
            let held = Set(credentials.filter { $0.relyingPartyID == request.relyingPartyID }.map(\.id))
            guard held.isDisjoint(with: request.excludeCredentials) else { throw .credentialExcluded }
            if discoverable {  // a discoverable credential replaces the one of the same account (CTAP 2.1 §6.1.2 step 16)
                credentials.removeAll { $0.isDiscoverable && $0.relyingPartyID == request.relyingPartyID && $0.userHandle == request.userID }
            }
            let credential = VirtualCredential(relyingPartyID: request.relyingPartyID, userHandle: request.userID, userName: request.userName,
                                               userDisplayName: request.userDisplayName, algorithm: algorithm, isDiscoverable: discoverable)
            credentials.append(credential)
            let data = AuthenticatorData(relyingPartyID: request.relyingPartyID, flags: flags, signCount: 0,
                                         attestedCredential: .init(credentialID: credential.id, publicKey: try credential.publicKey))
            return MadeCredential(attestationObject: MadeCredential.noneAttestation(data), authenticatorData: data, isDiscoverable: discoverable)
        }
    }

    /// authenticatorGetAssertion, at once.
    func getAssertionNow(_ request: GetAssertionRequest, verifiedByPIN: Bool = false) throws(AuthenticatorError) -> Assertion {
        let flags = try confirmation(request.userVerification, verifiedByPIN: verifiedByPIN)
        return try withCredentials { (credentials) throws(AuthenticatorError) in
            let candidates = credentials.indices.filter { index in
                let credential = credentials[index]
                guard credential.relyingPartyID == request.relyingPartyID else { return false }
                return request.allowCredentials.isEmpty ? credential.isDiscoverable : request.allowCredentials.contains(credential.id)
            }
            let named = settings.user.map { user in candidates.filter { credentials[$0].userName == user } } ?? candidates
            guard let index = named.last else { throw .noCredentials }  // the newest: credentials are kept in the order they were made
            if settings.signCount == .increment { credentials[index].signCount &+= 1 }
            let credential = credentials[index]
            let data = AuthenticatorData(relyingPartyID: request.relyingPartyID, flags: flags, signCount: credential.signCount).encoded
            return Assertion(credentialID: credential.id, authenticatorData: data, signature: try credential.sign(data + request.clientDataHash),
                             userHandle: credential.isDiscoverable ? credential.userHandle : nil)
        }
    }

    /// The flags it answers with, or why it does not confirm.
    private func confirmation(_ verification: CredentialCreationOptions.Requirement, verifiedByPIN: Bool) throws(AuthenticatorError)
        -> AuthenticatorData.Flags {
        guard settings.userPresence else { throw .notConfirmed("the login script's passkey says user_presence: false") }
        let verified = settings.userVerification || verifiedByPIN
        if verification == .required, !verified { throw .userVerificationUnavailable }
        return verified ? [.userPresent, .userVerified] : [.userPresent]
    }

    private func withCredentials<Result>(_ body: (inout [VirtualCredential]) throws(AuthenticatorError) -> Result) throws(AuthenticatorError) -> Result {
        if let file { return try file.update(body) }
        return try memory.withLock(body)
    }
}
