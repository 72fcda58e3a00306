import Foundation
import Logging
import OpenIDConnect
import SecretGate
import WebAuthn
internal import CWebKitGTK

/// A sign-in page's WebAuthn requests (``PasskeyChannel``) and what answers them: each is checked
/// against the origin WebKit committed for the top-level document (never the page's word),
/// answered by ``WebAuthnClient`` with the page's authenticator as `SecretGate` allows, within the
/// request's timeout, and only while its document is still the one shown. It keeps its state to
/// itself; the page it belongs to is handed to each call that has to report to it.
@WebKitActor
final class PasskeyRequests {
    /// A request under way: its task, and the reply the page waits on.
    private struct Operation {
        let task: Task<Void, Never>
        let reply: ScriptMessageReply
    }

    /// The committed top-level document's origin; nil before the first commit and for a
    /// document without one (`about:blank`, `data:`).
    private var origin: WebAuthnOrigin?
    /// Counts commits: an answer made for one document is never given to the next.
    private var document = 0
    /// What answers: nil (no passkeys here), the virtual authenticator of a login script, or security keys.
    private var authenticator: (any PasskeyAuthenticator)?
    /// Who may receive a passkey's answer.
    private var gate: SecretGate
    /// Requests under way, by their number on the page.
    private var operations: [Int: Operation] = [:]
    /// Passkey autofill requests (`mediation: "conditional"`), which wait for the page to abort them.
    private var held: [Int: ScriptMessageReply] = [:]
    /// The last request of this document refused because nothing could answer it.
    private var refused: (operation: PasskeyOperation, relyingParty: String)?
    /// The security key dialog of the request waiting on the key (one at a time), and that request's number.
    private var securityKeyRequest: (id: Int, dialog: SecurityKeyDialog)?
    private let logger: Logger

    /// Requests of a page whose passkeys go where `gate` allows.
    init(gate: SecretGate, logger: Logger) {
        self.gate = gate
        self.logger = logger
    }

    /// Answers requests from now on with `authenticator` (a login script's virtual one), as `gate` allows.
    func use(_ authenticator: any PasskeyAuthenticator, gate: SecretGate) {
        (self.authenticator, self.gate) = (authenticator, gate)
    }

    /// Answers requests with the security keys of `source`, the person touching them in
    /// ``SecurityKeyDialog`` (a page shown to a person only).
    func offerSecurityKeys(_ source: SecurityKeySource) {
        authenticator = SecurityKeyAuthenticator(source: source) { [weak self] triesLeft in
            await self?.securityKeyPIN(triesLeft: triesLeft)
        }
    }

    /// The PIN the person types into the dialog of the request waiting on the key; nil: Cancel, or no such request.
    private func securityKeyPIN(triesLeft: Int?) async -> String? {
        await securityKeyRequest?.dialog.askForPIN(triesLeft: triesLeft)
    }

    /// The security key dialog shown for the request waiting on the key, if one is.
    var securityKeyDialog: SecurityKeyDialog? { securityKeyRequest?.dialog }

    /// A new top-level document committed at `uri`: requests of the old one end unanswered
    /// (their document is gone), and the origin is the new one's.
    func documentCommitted(uri: String) {
        origin = WebAuthnOrigin(url: uri)
        document += 1
        for operation in operations.values { operation.task.cancel() }
        (operations, held, refused) = ([:], [:], nil)
        securityKeyRequest?.dialog.close()
        securityKeyRequest = nil
    }

    /// A message of `page`'s bridge (nil: not text), with the reply its page waits on.
    func received(_ text: String?, reply: ScriptMessageReply, on page: SignInPage) {
        guard let text, let message = PasskeyPageMessage(text) else { return }  // the reply's release answers `undefined`
        switch message.kind {
        case .abort:
            operations.removeValue(forKey: message.id)?.task.cancel()
            held[message.id] = nil
            closeSecurityKeyDialog(of: message.id)
        case .available:
            reply.answer(message.answer(["value": .bool(userVerifyingAuthenticatorAnswers(message))]))
        case .get(_, conditional: true):
            held[message.id] = reply  // no autofill here: it waits until the page aborts it or goes
        case .create(let options), .get(let options, conditional: false):
            start(message, options: options, reply: reply, on: page)
        }
    }

    /// A scripted page that settled after refusing a passkey request for want of an authenticator
    /// settled on the passkey prompt: it ends as ``WebAuthenticationError/passkeyRequested(operation:relyingParty:pageText:)``.
    func settledOnPasskeyPrompt(_ outcome: SignInFlow.Outcome) -> SignInFlow.Outcome {
        guard case .failure(.pageSettled(let page, _)) = outcome, let refused else { return outcome }
        return .failure(.passkeyRequested(operation: refused.operation, relyingParty: refused.relyingParty, pageText: page.message))
    }

    /// `isUserVerifyingPlatformAuthenticatorAvailable()` for the page that asks: true only when an
    /// authenticator that verifies its user would answer this document (the gate lets it, for the
    /// origin's own host), so a page the script's key does not serve learns nothing of it.
    private func userVerifyingAuthenticatorAnswers(_ message: PasskeyPageMessage) -> Bool {
        guard let authenticator, authenticator.isUserVerifying, let origin, origin.description == message.origin else { return false }
        let site = SecretRecipient.site(scheme: origin.scheme, host: origin.host, port: origin.port)
        return (try? gate.check(.passkeySignature(relyingParty: origin.host, authenticator: authenticator.kind), to: site)) != nil
    }

    /// Starts answering a create or get, unless its origin is not the committed document's.
    private func start(_ message: PasskeyPageMessage, options: JSONValue, reply: ScriptMessageReply, on page: SignInPage) {
        guard let operation = message.operation else { return }
        guard !page.hasEnded, let origin, origin.description == message.origin else {
            // The bridge's document is not the one WebKit committed (a request that crossed a navigation).
            return finish(message, reply: reply, relyingParty: message.origin, failure: WebAuthnDOMError(.notAllowed, "the document is gone"),
                          ofThisDocument: false, on: page)
        }
        if authenticator?.kind == .securityKey {
            guard securityKeyRequest == nil, let window = page.window else {
                return finish(message, reply: reply, relyingParty: origin.host,
                              failure: WebAuthnDOMError(.notAllowed, "another request waits for the security key"), ofThisDocument: false, on: page)
            }
            let dialog = SecurityKeyDialog(over: window, relyingParty: origin.host,
                                           onCancel: { [weak self] in self?.operations[message.id]?.task.cancel() },
                                           onChange: { [weak page] in page?.emit(.securityKeyDialog($0)) })
            securityKeyRequest = (message.id, dialog)
        }
        let client = WebAuthnClient(origin: origin, authenticator: authenticator, gate: gate,
                                    isPublicSuffix: { soup_tld_domain_is_public_suffix($0) != 0 })
        let document = self.document
        let task = Task { [weak self, weak page] in
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
                guard let self, let page else { return }
                return self.finish(message, reply: reply, relyingParty: origin.host, failure: error, ofThisDocument: true, on: page)
            }
            guard let self, let page, self.document == document, self.operations.removeValue(forKey: message.id) != nil else { return }
            let relyingParty = (try? RelyingPartyID.validate(named, for: origin, isPublicSuffix: client.isPublicSuffix)) ?? origin.host
            self.finish(message, operation: operation, relyingParty: relyingParty, result: result, reply: reply, on: page)
        }
        operations[message.id] = Operation(task: task, reply: reply)
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
                        result: Result<JSONValue, WebAuthnClientError>, reply: ScriptMessageReply, on page: SignInPage) {
        closeSecurityKeyDialog(of: message.id)
        let outcome: PasskeyOutcome
        switch result {
        case .success(let credential):
            reply.answer(message.answer(["credential": credential]))
            outcome = .answered(authenticator?.kind ?? .virtual)
        case .failure(let error):
            reply.answer(message.answer(error.domError))
            outcome = .failed(name: error.domError.name.rawValue, reason: "\(error)")
            if authenticator == nil { refused = (operation, relyingParty) }
            if case .refused(let refusal) = error { page.fail(.secretRefused(refusal)) }
        }
        logger.info("passkey request", metadata: ["operation": "\(operation.rawValue)", "relying_party": "\(relyingParty)", "outcome": "\(outcome)"])
        page.emit(.passkey(operation: operation, relyingParty: relyingParty, outcome: outcome))
    }

    /// Rejects a request that never reached the client: its options were wrong, or it was not
    /// `ofThisDocument` (its origin is not the committed one's).
    private func finish(_ message: PasskeyPageMessage, reply: ScriptMessageReply, relyingParty: String, failure: any Error,
                        ofThisDocument: Bool, on page: SignInPage) {
        let error = failure as? WebAuthnDOMError ?? WebAuthnDOMError(.type, "\(failure)")
        operations[message.id] = nil
        if ofThisDocument { closeSecurityKeyDialog(of: message.id) }
        reply.answer(message.answer(error))
        guard let operation = message.operation else { return }
        if authenticator == nil, ofThisDocument { refused = (operation, relyingParty) }
        logger.info("passkey request", metadata: ["operation": "\(operation.rawValue)", "outcome": "\(error)"])
        page.emit(.passkey(operation: operation, relyingParty: relyingParty, outcome: .failed(name: error.name.rawValue, reason: error.message)))
    }

    /// Closes the security key dialog if request `id` is the one waiting on the key.
    private func closeSecurityKeyDialog(of id: Int) {
        guard let request = securityKeyRequest, request.id == id else { return }
        request.dialog.close()
        securityKeyRequest = nil
    }
}
