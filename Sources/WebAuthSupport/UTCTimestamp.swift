import Foundation

/// An expiry as every command writes it: RFC 3339 in UTC to the whole second
/// (`2026-11-28T05:00:00Z`), as Foundation's `.iso8601` style does, without the calendar and time
/// zones that style loads (3.5 MiB of `webauth`'s shortcut's peak, milliseconds of each command).
package enum UTCTimestamp {
    /// `date`, to the whole second below it.
    package static func text(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        var text = [CChar](repeating: 0, count: 32)
        guard gmtime_r(&seconds, &parts) != nil else { return date.formatted(.iso8601) }
        let length = strftime(&text, text.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        guard length > 0 else { return date.formatted(.iso8601) }
        return String(decoding: text.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
