/// The relying party ID rules (WebAuthn §5.1.3 step 7, §5.1.4.1 step 7, HTML's "is a
/// registrable domain suffix of or is equal to"): the ID a page names must be its own origin's
/// host or a parent domain of it that is not a public suffix, on a secure origin whose host is a
/// domain. The origin is the engine's; the page only names the ID.
public enum RelyingPartyID {
    /// The relying party ID for a request from `origin` that named `requested` (nil: the origin's host).
    /// - Parameter isPublicSuffix: whether a domain is a public suffix (`com`, `co.uk`,
    ///   `github.io`), from the Public Suffix List; the engine asks libsoup's copy. Without one,
    ///   ``RelyingPartyID/singleLabelIsPublicSuffix(_:)`` refuses top-level domains only.
    /// - Throws: ``WebAuthnDOMError`` `SecurityError` when the origin is not secure, its host is
    ///   not a domain, or `requested` is neither its host nor a parent domain it may use.
    public static func validate(_ requested: String?, for origin: WebAuthnOrigin,
                                isPublicSuffix: (String) -> Bool = singleLabelIsPublicSuffix) throws(WebAuthnDOMError) -> String {
        guard origin.isSecure else {
            throw WebAuthnDOMError(.security, "\(origin) is not a secure context (https, or http on localhost)")
        }
        guard isDomain(origin.host) else {
            throw WebAuthnDOMError(.security, "\(origin.host) is not a domain, so it cannot be a relying party")
        }
        guard let requested else { return origin.host }
        let id = requested.lowercased()
        guard isDomain(id) else { throw WebAuthnDOMError(.security, "the relying party ID is not a domain") }
        if id == origin.host { return id }
        guard origin.host.hasSuffix("." + id), !isPublicSuffix(id) else {
            throw WebAuthnDOMError(.security, "the relying party ID is not \(origin.host) or a domain it belongs to")
        }
        return id
    }

    /// Whether `host` is a domain name: labels of letters, digits and hyphens (or the punycode of
    /// another script), at most 253 characters, and not an IPv4 or IPv6 address.
    public static func isDomain(_ host: String) -> Bool {
        guard !host.isEmpty, host.utf8.count <= 253, !host.contains(":") else { return false }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.allSatisfy({ label in
            !label.isEmpty && label.utf8.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
        }) else { return false }
        // An IPv4 address, in any of the forms a URL parser accepts, ends in a numeric label.
        return !(labels.last!.allSatisfy(\.isNumber) || labels.last!.hasPrefix("0x"))
    }

    /// The fallback public-suffix rule: a single label (`com`, `localhost`'s parent `""`) is
    /// one, except `localhost` itself.
    public static func singleLabelIsPublicSuffix(_ domain: String) -> Bool {
        !domain.contains(".") && domain != "localhost"
    }
}
