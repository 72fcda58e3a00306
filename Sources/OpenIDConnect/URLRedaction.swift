/// URLs and form bodies with every value that could be a secret hidden, for logs, messages,
/// navigation records and artefacts. Names stay, so a log still tells what came back.
///
/// Hidden: every query and fragment value (`code=<43>`) but those of the protocol's public
/// parameters (``visibleParameters``: `client_id`, `redirect_uri`, `scope`, `error`…), an item
/// with no `=` (it may be a bare token: `#<40>`), path parameters (`;jsessionid=<32>`) and a
/// password in the user-info (`https://user:<6>@host/`, and with no scheme, as curl takes a proxy:
/// `user:<6>@proxy:3128`). A value already shown as `<N>` stays as
/// it is, so redacting twice changes nothing.
package enum URLRedaction {
    /// OAuth and OpenID Connect parameters whose values are never secret, shown as they are so a
    /// log still says which client asked for what and why it failed.
    package static let visibleParameters: Set<String> = [
        "response_type", "response_mode", "client_id", "redirect_uri", "scope", "code_challenge_method", "prompt", "max_age",
        "ui_locales", "display", "acr_values", "error", "error_description", "error_uri", "iss", "post_logout_redirect_uri",
    ]

    /// `url` with its values replaced by their lengths: `com.example:/cb?code=<43>&state=<22>`.
    package static func redactingValues(_ url: String) -> String {
        var base = Substring(url)
        var parts: [(separator: Character, text: Substring)] = []
        if let hash = base.firstIndex(of: "#") {
            parts.insert(("#", base[base.index(after: hash)...]), at: 0)
            base = base[..<hash]
        }
        if let mark = base.firstIndex(of: "?") {
            parts.insert(("?", base[base.index(after: mark)...]), at: 0)
            base = base[..<mark]
        }
        var out = redactingPath(redactingPassword(base))
        for part in parts {
            out.append(part.separator)
            out += redactingItems(part.text, separator: "&")
        }
        return out
    }

    /// An `application/x-www-form-urlencoded` body with its values replaced by their lengths.
    package static func redactingFormBody(_ body: String) -> String {
        redactingItems(Substring(body), separator: "&")
    }

    /// `name=<N>` for each `name=value`, `<N>` for an item without `=`; empty items stay empty.
    private static func redactingItems(_ text: Substring, separator: Character) -> String {
        text.split(separator: separator, omittingEmptySubsequences: false).map { item in
            guard let equals = item.firstIndex(of: "=") else { return hidden(item) }
            let value = item[item.index(after: equals)...]
            return "\(item[..<equals])=" + (visibleParameters.contains(String(item[..<equals])) ? String(value) : hidden(value))
        }.joined(separator: String(separator))
    }

    /// `<N>`, the length of `value`; an empty value, or one already hidden, as it is.
    private static func hidden(_ value: Substring) -> String {
        if value.isEmpty || (value.first == "<" && value.last == ">" && value.dropFirst().dropLast().allSatisfy(\.isNumber)) {
            return String(value)
        }
        return "<\(value.count)>"
    }

    /// The password of `scheme://user:password@host` hidden, and of `user:password@host[:port]`
    /// with no scheme (curl reads a proxy variable so). With no `://`, the text up to the `@`
    /// is the user-info: `mailto:a@b` becomes `mailto:<1>@b`, more hidden rather than less.
    package static func redactingPassword(_ base: Substring) -> Substring {
        let authorityStart = base.range(of: "://")?.upperBound ?? base.startIndex
        let authorityEnd = base[authorityStart...].firstIndex(of: "/") ?? base.endIndex
        guard let at = base[authorityStart..<authorityEnd].lastIndex(of: "@"),
              let colon = base[authorityStart..<at].firstIndex(of: ":") else { return base }
        return base[..<base.index(after: colon)] + hidden(base[base.index(after: colon)..<at]) + base[at...]
    }

    /// Path parameters (`;jsessionid=…`, `;token`) hidden, segment by segment.
    private static func redactingPath(_ base: Substring) -> String {
        base.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            guard let semicolon = segment.firstIndex(of: ";") else { return String(segment) }
            return segment[..<semicolon] + ";" + redactingItems(segment[segment.index(after: semicolon)...], separator: ";")
        }.joined(separator: "/")
    }
}
