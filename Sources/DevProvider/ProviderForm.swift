import Foundation
import OpenIDConnect

/// The form fields and random values every endpoint of the development provider reads and makes.
enum ProviderForm {
    /// The fields of a query string or form body, the first of each name.
    static func fields(_ encoded: String) -> [String: String] {
        Dictionary(all(encoded).map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every field of a query string or form body, repeated names included, in order.
    static func all(_ encoded: String) -> [(name: String, value: String)] {
        (try? FormURLEncoding.decode(encoded)) ?? []
    }

    /// 32 random bytes, base64url without padding: codes, tokens, interactions, nonces.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode(Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }))
    }
}
