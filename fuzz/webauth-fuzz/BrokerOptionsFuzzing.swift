import Foundation
import WebAuthBrokerContract
internal import CGDBus

/// The broker's `a{sv}` options, as a caller on the bus can send them: the bytes as a
/// serialized GVariant (what a D-Bus message carries, unchecked) and as GVariant text (so the
/// seeds read as options), each decoded as `SignIn`'s, `GetToken`'s and `SignOut`'s options.
enum BrokerOptionsFuzzing {
    static func options(_ data: Data) {
        let type = g_variant_type_new("a{sv}")
        defer { g_variant_type_free(type) }
        let bytes = data.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        if let serialized = g_variant_new_from_bytes(type, bytes, 0) {
            g_variant_ref_sink(serialized)
            decode(serialized)
            g_variant_unref(serialized)
        }
        let text = String(decoding: data, as: UTF8.self)
        if let parsed = g_variant_parse(type, text, nil, nil, nil) {
            decode(parsed)
            g_variant_unref(parsed)
        }
    }

    /// Every method's options from `variant` (not consumed), and the handle a token would make.
    private static func decode(_ variant: OpaquePointer) {
        let options = BusValue.dictionary(variant: variant)
        _ = try? SignInOptions(options).authorizationParameters
        _ = try? TokenOptions(options)
        _ = try? SignOutOptions(options)
        if case .string(let token)? = options["handle_token"] {
            _ = try? RequestHandle(sender: ":1.42", token: RequestHandle.checkedToken(token)).path
        }
        _ = BusValue.newDictionary(options)
    }
}
