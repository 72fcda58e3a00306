/// The languages one authorization request asked for: the page's `Accept-Language` header and
/// the OpenID Connect `ui_locales` parameter.
public struct LanguagesAsked: Sendable, Hashable {
    /// The `Accept-Language` header, if sent.
    public let acceptLanguage: String?
    /// The `ui_locales` parameter, if sent.
    public let uiLocales: String?
}
