import OpenIDConnect
import WebAuthSupport

/// Keys a login script does not know are errors, not silently ignored: a misspelt key would
/// otherwise drop a setting (`setle_time`) or a value source without a word.
extension Decoder {
    /// Throws `DecodingError.dataCorrupted` naming the first key of this mapping not in `known`,
    /// with the closest known key as a suggestion; `otherwise` is added when there is none.
    func rejectUnknownKeys(_ known: [String], otherwise hint: String? = nil) throws {
        guard let unknown = try container(keyedBy: AnyKey.self).allKeys.map(\.stringValue).first(where: { !known.contains($0) }) else {
            return
        }
        var message = Spelling.unknown("key", unknown, among: known)
        if let hint, Spelling.suggestion(for: unknown, among: known) == nil { message += "; \(hint)" }
        throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: message))
    }
}

/// Any key of a mapping.
private struct AnyKey: CodingKey {
    let stringValue: String
    let intValue: Int? = nil
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
