import OpenIDConnect
import WebAuthn

/// One message of ``PasskeyBridgeScript``: a request of the page (its kind, its number on the
/// page, its options), and the origin of the top document as the engine's isolated world saw
/// it. Anything else is ignored.
struct PasskeyPageMessage: Sendable {
    /// What the page asked.
    enum Kind: Sendable {
        /// `navigator.credentials.create`.
        case create(JSONValue)
        /// `navigator.credentials.get`; `conditional` for passkey autofill (`mediation: "conditional"`).
        case get(JSONValue, conditional: Bool)
        /// The page's `AbortSignal` aborted request `id`.
        case abort
        /// `PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable()`.
        case available
    }

    /// What the page asked.
    let kind: Kind
    /// The request's number on the page (its answer carries it back).
    let id: Int
    /// The document's origin, serialised, as the isolated world read `location.origin`.
    let origin: String

    /// The message in `text`, or nil when it is not one.
    init?(_ text: String) {
        guard text.utf8.count <= 64 * 1024, let json = try? JSONValue(parsing: text), let number = json["id"]?.numberValue,
              number.rounded() == number, abs(number) < 1e15, let origin = json["origin"]?.stringValue else { return nil }
        switch json["kind"]?.stringValue {
        case "create": kind = .create(json["options"] ?? .null)
        case "get": kind = .get(json["options"] ?? .null, conditional: json["mediation"]?.stringValue == "conditional")
        case "abort": kind = .abort
        case "available": kind = .available
        default: return nil
        }
        (id, self.origin) = (Int(number), origin)
    }

    /// The operation, for a create or get.
    var operation: PasskeyOperation? {
        switch kind {
        case .create: .create
        case .get: .get
        case .abort, .available: nil
        }
    }

    /// The answer to this request: `{"id": N, ...body}`, as the page side reads it.
    func answer(_ body: [String: JSONValue]) -> String {
        JSONValue.object(body.merging(["id": .number(Double(id))]) { $1 }).description
    }

    /// The answer that rejects this request with `error`.
    func answer(_ error: WebAuthnDOMError) -> String {
        answer(["error": .object(["name": .string(error.name.rawValue), "message": .string(error.message)])])
    }
}
