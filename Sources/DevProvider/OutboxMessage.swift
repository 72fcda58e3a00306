import Foundation

/// An email the development provider "sent": the one-time codes of the email login, kept for
/// scripts to read (``OpenIDProvider/outbox``, or `GET /outbox?email=ADDRESS` as JSON).
public struct OutboxMessage: Sendable, Hashable, Codable {
    /// The address.
    public let to: String
    /// The subject line.
    public let subject: String
    /// The one-time code the message carries.
    public let code: String
    /// When it was sent.
    public let sentAt: Date

    enum CodingKeys: String, CodingKey {
        case to, subject, code
        case sentAt = "sent_at"
    }
}
