import Foundation
import OpenIDConnect
import WebAuthSupport

/// The email login's one-time codes: the code last sent to each address with the wrong tries it
/// has left, and the ``OutboxMessage``s "sent" (``OpenIDProvider/outbox``, `GET /outbox`).
final class EmailCodes: Sendable {
    /// The one-time code last sent to an address, and how many wrong tries it has left.
    private struct SentCode: Sendable {
        let code: String
        var triesLeft: Int
    }

    private struct Mail: Sendable {
        /// By lowercased address.
        var codes: [String: SentCode] = [:]
        var outbox: [OutboxMessage] = []
    }

    /// Not a `Mutex`: see ``LockedState`` (server threads send, tests read).
    private let mail = LockedState(Mail())

    /// The messages sent so far, oldest first.
    var outbox: [OutboxMessage] { mail.withLock { $0.outbox } }

    /// Sends a new code to `address`, replacing the one before.
    func send(to address: String) {
        var generator = SystemRandomNumberGenerator()
        let code = String(format: "%06d", Int.random(in: 0..<1_000_000, using: &generator))
        mail.withLock { mail in
            mail.codes[address.lowercased()] = SentCode(code: code, triesLeft: OpenIDProvider.oneTimeCodeTries)
            mail.outbox.append(OutboxMessage(to: address, subject: "Your sign-in code is \(code)", code: code, sentAt: Date()))
        }
    }

    /// `nil` when `code` is the one sent to `email` (used up then), else what to tell the person.
    func refusal(of code: String, for email: String) -> String? {
        let key = email.lowercased()
        return mail.withLock { mail in
            guard var sent = mail.codes[key] else { return "That code has expired. Send a new code." }
            if sent.code == code {
                mail.codes[key] = nil
                return nil
            }
            sent.triesLeft -= 1
            mail.codes[key] = sent.triesLeft > 0 ? sent : nil
            return sent.triesLeft > 0 ? "That code is not right. Try again." : "Too many wrong codes. Send a new code."
        }
    }

    /// `GET /outbox?email=ADDRESS`: the messages sent to an address (or all), newest last, as JSON.
    func respond(to request: LocalHTTPRequest) -> LocalHTTPResponse {
        let address = ProviderForm.fields(request.query)["email"]
        let messages = outbox.filter { address == nil || $0.to.caseInsensitiveCompare(address!) == .orderedSame }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let body = (try? encoder.encode(messages)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        return LocalHTTPResponse(headers: ["Content-Type": "application/json", "Cache-Control": "no-store"], body: body)
    }
}
