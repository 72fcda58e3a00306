/// The environment variables that hold our secrets. A command reads them once, into memory, and
/// takes them out of its own environment before anything starts a process (WebKit's web and
/// network processes inherit the whole environment, and run the provider's JavaScript).
public enum SecretVariables {
    /// The variables `webauth` reads secrets from: the client secret, a PKCS#11 PIN, a client
    /// certificate's key password, a proxy's password and a registration's initial access token.
    public static let known: Set<String> = [
        "WEBAUTH_CLIENT_SECRET", "WEBAUTH_PKCS11_PIN", "WEBAUTH_CLIENT_CERTIFICATE_PASSWORD", "WEBAUTH_PROXY_PASSWORD",
        "WEBAUTH_INITIAL_ACCESS_TOKEN",
    ]
}
