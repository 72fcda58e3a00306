/// What the PKCS#11 URIs this package takes (RFC 7512) may hold.
package enum PKCS11URI {
    /// Whether `uri` is a `pkcs11:` URI at all.
    package static func isURI(_ uri: String) -> Bool {
        uri.lowercased().hasPrefix("pkcs11:")
    }

    /// Whether `uri` holds its token's PIN (`pin-value`) or where it is (`pin-source`): refused
    /// everywhere, since a URI is shown in messages, saved with a sign-in and visible on a command
    /// line; the PIN is given apart.
    package static func holdsPIN(_ uri: String) -> Bool {
        let lowercased = uri.lowercased()
        return lowercased.contains("pin-value=") || lowercased.contains("pin-source=")
    }
}
