import OpenIDConnect
import SecretGate
import WebAuthn

/// A sign-in page's WebAuthn state: the origin of its committed top-level document
/// (from WebKit, never from the page), what answers requests and under which gate, the requests
/// under way, and the last one refused for want of an authenticator (the page may settle on it).
@WebKitActor
struct PasskeyRequests {
    /// A request under way: its task, and the reply the page waits on.
    struct Operation {
        let task: Task<Void, Never>
        let reply: ScriptMessageReply
    }

    /// The committed top-level document's origin; nil before the first commit and for a
    /// document without one (`about:blank`, `data:`).
    private(set) var origin: WebAuthnOrigin?
    /// Counts commits: an answer made for one document is never given to the next.
    private(set) var document = 0
    /// What answers: nil (no passkeys here), the virtual authenticator of a login script, or security keys.
    var authenticator: (any PasskeyAuthenticator)?
    /// Who may receive a passkey's answer.
    var gate: SecretGate
    /// Requests under way, by their number on the page.
    var operations: [Int: Operation] = [:]
    /// Passkey autofill requests (`mediation: "conditional"`), which wait for the page to abort them.
    var held: [Int: ScriptMessageReply] = [:]
    /// The last request of this document refused because nothing could answer it.
    var refused: (operation: PasskeyOperation, relyingParty: String)?
    /// The security key dialog of the request waiting on the key (one at a time), and that request's number.
    var securityKeyRequest: (id: Int, dialog: SecurityKeyDialog)?

    /// State for a page whose passkeys go where `gate` allows.
    init(gate: SecretGate) {
        self.gate = gate
    }

    /// A new top-level document committed at `uri`: requests of the old one end unanswered
    /// (their document is gone), and the origin is the new one's.
    mutating func documentCommitted(uri: String) {
        origin = WebAuthnOrigin(url: uri)
        document += 1
        for operation in operations.values { operation.task.cancel() }
        (operations, held, refused) = ([:], [:], nil)
        securityKeyRequest?.dialog.close()
        securityKeyRequest = nil
    }
}
