/// The languages a person reads, most preferred first, as BCP 47 tags (`fr-CA`), read from the
/// environment the way gettext does: `LANGUAGE` (a colon-separated list) unless the locale is
/// `C`/`POSIX`, then the locale of `LC_ALL`, else `LC_MESSAGES`, else `LANG`.
enum UserLanguages {
    /// The tags `environment` gives; empty when it names no language (the `C` locale).
    static func from(_ environment: [String: String]) -> [String] {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        guard let locale, let own = tag(locale) else { return [] }
        let listed = (environment["LANGUAGE"] ?? "").split(separator: ":").compactMap { tag(String($0)) }
        return listed.isEmpty ? [own] : listed
    }

    /// `fr_CA.UTF-8@euro` as `fr-CA`; `nil` for `C`, `POSIX` and empty names.
    static func tag(_ locale: String) -> String? {
        let name = locale.prefix { $0 != "." && $0 != "@" }
        guard !name.isEmpty, name != "C", name != "POSIX" else { return nil }
        return String(name.map { $0 == "_" ? "-" : $0 })
    }
}
