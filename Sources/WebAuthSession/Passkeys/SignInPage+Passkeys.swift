import Foundation
import OpenIDConnect
import SecretGate
import WebAuthn
internal import CWebKitGTK

/// What a sign-in page does with the page's WebAuthn requests (``PasskeyChannel``):
/// each is checked against the origin WebKit committed for the top-level document, answered by
/// ``WebAuthnClient`` with the page's authenticator as `SecretGate` allows, within the
/// request's timeout, and only while its document is still the one shown.
extension SignInPage {
    /// Answers requests from now on with `authenticator` (a login script's virtual one), as `gate` allows.
    func usePasskeys(_ authenticator: any PasskeyAuthenticator, gate: SecretGate) {
        (passkeys.authenticator, passkeys.gate) = (authenticator, gate)
    }

    /// Answers requests with the security keys of `source`, the person touching them in
    /// ``SecurityKeyDialog`` (a page shown to a person only).
    func offerSecurityKeys(_ source: SecurityKeySource) {
        passkeys.authenticator = SecurityKeyAuthenticator(source: source) { [weak self] triesLeft in
            await self?.securityKeyPIN(triesLeft: triesLeft)
        }
    }

    /// The PIN the person types into the dialog of the request waiting on the key; nil: Cancel, or no such request.
    private func securityKeyPIN(triesLeft: Int?) async -> String? {
        await passkeys.securityKeyRequest?.dialog.askForPIN(triesLeft: triesLeft)
    }

    /// A message of the bridge (nil: not text), with the reply its page waits on.
    func passkeyMessage(_ text: String?, reply: ScriptMessageReply) {
        guard let text, let message = PasskeyPageMessage(text) else { return }  // the reply's release answers `undefined`
        switch message.kind {
        case .abort:
            passkeys.operations.removeValue(forKey: message.id)?.task.cancel()
            passkeys.held[message.id] = nil
            closeSecurityKeyDialog(of: message.id)
        case .available:
            reply.answer(message.answer(["value": .bool(userVerifyingAuthenticatorAnswers(message))]))
        case .get(_, conditional: true):
            passkeys.held[message.id] = reply  // no autofill here: it waits until the page aborts it or goes
        case .create(let options), .get(let options, conditional: false):
            start(message, options: options, reply: reply)
        }
    }

    /// `isUserVerifyingPlatformAuthenticatorAvailable()` for the page that asks: true only when an
    /// authenticator that verifies its user would answer this document (the gate lets it, for the
    /// origin's own host), so a page the script's key does not serve learns nothing of it.
    private func userVerifyingAuthenticatorAnswers(_ message: PasskeyPageMessage) -> Bool {
        guard let authenticator = passkeys.authenticator, authenticator.isUserVerifying, let origin = passkeys.origin,
              origin.description == message.origin else { return false }
        let site = SecretRecipient.site(scheme: origin.scheme, host: origin.host, port: origin.port)
        return (try? passkeys.gate.check(.passkeySignature(relyingParty: origin.host, authenticator: authenticator.kind), to: site)) != nil
    }

    /// Starts answering a create or get, unless its origin is not the committed document's.
    private func start(_ message: PasskeyPageMessage, options: JSONValue, reply: ScriptMessageReply) {
        guard let operation = message.operation else { return }
        guard !hasEnded, let origin = passkeys.origin, origin.description == message.origin else {
            // The bridge's document is not the one WebKit committed (a request that crossed a navigation).
            return finish(message, reply: reply, relyingParty: message.origin, failure: WebAuthnDOMError(.notAllowed, "the document is gone"),
                          ofThisDocument: false)
        }
        if passkeys.authenticator?.kind == .securityKey {
            guard passkeys.securityKeyRequest == nil, let window else {
                return finish(message, reply: reply, relyingParty: origin.host,
                              failure: WebAuthnDOMError(.notAllowed, "another request waits for the security key"), ofThisDocument: false)
            }
            let dialog = SecurityKeyDialog(over: window, relyingParty: origin.host,
                                           onCancel: { [weak self] in self?.passkeys.operations[message.id]?.task.cancel() },
                                           onChange: { [weak self] in self?.emit(.securityKeyDialog($0)) })
            passkeys.securityKeyRequest = (message.id, dialog)
        }
        let client = WebAuthnClient(origin: origin, authenticator: passkeys.authenticator, gate: passkeys.gate,
                                    isPublicSuffix: { soup_tld_domain_is_public_suffix($0) != 0 })
        let document = passkeys.document
        let task = Task { [weak self] in
            let result: Result<JSONValue, WebAuthnClientError>
            let named: String?
            do {
                switch operation {
                case .create:
                    let options = try CredentialCreationOptions(json: options)
                    named = options.relyingPartyID
                    result = await Self.answer(within: WebAuthnClient.timeout(milliseconds: options.timeout)) { () async throws(WebAuthnClientError) in try await client.create(options) }
                case .get:
                    let options = try CredentialRequestOptions(json: options)
                    named = options.relyingPartyID
                    result = await Self.answer(within: WebAuthnClient.timeout(milliseconds: options.timeout)) { () async throws(WebAuthnClientError) in try await client.get(options) }
                }
            } catch {
                return self?.finish(message, reply: reply, relyingParty: origin.host, failure: error, ofThisDocument: true) ?? ()
            }
            guard let self, self.passkeys.document == document, self.passkeys.operations.removeValue(forKey: message.id) != nil else { return }
            let relyingParty = (try? RelyingPartyID.validate(named, for: origin, isPublicSuffix: client.isPublicSuffix)) ?? origin.host
            self.finish(message, operation: operation, relyingParty: relyingParty, result: result, reply: reply)
        }
        passkeys.operations[message.id] = PasskeyRequests.Operation(task: task, reply: reply)
    }

    /// `body`'s answer, or NotAllowedError once `timeout` has passed (the authenticator is cancelled).
    private static func answer(within timeout: Duration,
                               _ body: @escaping @Sendable () async throws(WebAuthnClientError) -> JSONValue) async -> Result<JSONValue, WebAuthnClientError> {
        await withTaskGroup(of: Result<JSONValue, WebAuthnClientError>?.self) { group in
            group.addTask {
                do throws(WebAuthnClientError) { return .success(try await body()) } catch { return .failure(error) }
            }
            group.addTask {
                guard (try? await Task.sleep(for: timeout)) != nil else { return nil }
                return .failure(.authenticator(.unavailable("the request's timeout of \(timeout) passed")))
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .failure(.authenticator(.notConfirmed("cancelled")))
        }
    }

    /// Answers the page with the credential or the error, logs and reports it, and remembers a
    /// request made while nothing could answer (``settledOnPasskeyPrompt(_:)``), whatever the
    /// page's error: a page that settles on it needs a passkey to go on. A gate refusal of a login
    /// script's virtual authenticator ends the sign-in: the script asked for something it may not do.
    private func finish(_ message: PasskeyPageMessage, operation: PasskeyOperation, relyingParty: String,
                        result: Result<JSONValue, WebAuthnClientError>, reply: ScriptMessageReply) {
        closeSecurityKeyDialog(of: message.id)
        let outcome: PasskeyOutcome
        switch result {
        case .success(let credential):
            reply.answer(message.answer(["credential": credential]))
            outcome = .answered(passkeys.authenticator?.kind ?? .virtual)
        case .failure(let error):
            reply.answer(message.answer(error.domError))
            outcome = .failed(name: error.domError.name.rawValue, reason: "\(error)")
            if passkeys.authenticator == nil { passkeys.refused = (operation, relyingParty) }
            if case .refused(let refusal) = error { fail(.secretRefused(refusal)) }
        }
        logger.info("passkey request", metadata: ["operation": "\(operation.rawValue)", "relying_party": "\(relyingParty)", "outcome": "\(outcome)"])
        emit(.passkey(operation: operation, relyingParty: relyingParty, outcome: outcome))
    }

    /// Rejects a request that never reached the client: its options were wrong, or it was not
    /// `ofThisDocument` (its origin is not the committed one's).
    private func finish(_ message: PasskeyPageMessage, reply: ScriptMessageReply, relyingParty: String, failure: any Error,
                        ofThisDocument: Bool) {
        let error = failure as? WebAuthnDOMError ?? WebAuthnDOMError(.type, "\(failure)")
        passkeys.operations[message.id] = nil
        if ofThisDocument { closeSecurityKeyDialog(of: message.id) }
        reply.answer(message.answer(error))
        guard let operation = message.operation else { return }
        if passkeys.authenticator == nil, ofThisDocument { passkeys.refused = (operation, relyingParty) }
        logger.info("passkey request", metadata: ["operation": "\(operation.rawValue)", "outcome": "\(error)"])
        emit(.passkey(operation: operation, relyingParty: relyingParty, outcome: .failed(name: error.name.rawValue, reason: error.message)))
    }

    /// Closes the security key dialog if request `id` is the one waiting on the key.
    private func closeSecurityKeyDialog(of id: Int) {
        guard let request = passkeys.securityKeyRequest, request.id == id else { return }
        request.dialog.close()
        passkeys.securityKeyRequest = nil
    }

    /// A scripted page that settled after refusing a passkey request for want of an authenticator
    /// settled on the passkey prompt: it ends as ``WebAuthenticationError/passkeyRequested(operation:relyingParty:pageText:)``.
    func settledOnPasskeyPrompt(_ outcome: Outcome) -> Outcome {
        guard case .failure(.pageSettled(let page, _)) = outcome, let refused = passkeys.refused else { return outcome }
        return .failure(.passkeyRequested(operation: refused.operation, relyingParty: refused.relyingParty, pageText: page.message))
    }
}
