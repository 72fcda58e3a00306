import ArgumentParser
import Foundation
import OpenIDConnect
import WebAuthSession

/// How the page and the requests reach the network: the proxy, a private CA, a client certificate,
/// the languages and the sites trusted for Negotiate (flags, else the `--config` file, else the environment).
struct NetworkOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The proxy for the page and every request: http://[user@]host:port, or none (proxy in --config). The password comes from WEBAUTH_PROXY_PASSWORD, never the command line. Default: https_proxy, http_proxy, all_proxy and no_proxy as curl reads them (loopback hosts too), else the desktop's proxy settings.",
                               valueName: "url"))
    var proxy: String?

    @Option(help: ArgumentHelp("Hosts reached without --proxy, comma-separated: example.com and .example.com take subdomains, 10.0.0.0/8 a range (no_proxy in --config).",
                               valueName: "list"))
    var noProxy: String?

    @Option(help: ArgumentHelp("A PEM file of certificate authorities to trust beside the system's, for a provider with an internal CA: the page and every request (ca_file in --config).",
                               valueName: "pem"))
    var caFile: String?

    @Option(help: ArgumentHelp("A client certificate for a provider that asks for one (mutual TLS, smart card): the page and every request. A PEM file (certificate and key), a PKCS#12 file, or a PKCS#11 URI such as pkcs11:token=alice;object=login (client_certificate in --config). The PKCS#12 password comes from WEBAUTH_CLIENT_CERTIFICATE_PASSWORD and the token's PIN from WEBAUTH_PKCS11_PIN, never the command line.",
                               valueName: "file|pkcs11:uri"))
    var clientCertificate: String?

    @Option(help: ArgumentHelp("The client certificate's private key, when a PEM file of its own holds it (client_certificate_key in --config).",
                               valueName: "pem"))
    var clientCertificateKey: String?

    @Option(name: .customLong("language"),
            help: ArgumentHelp("A language to ask the provider's page for, e.g. fr-CA (repeatable, or a comma list; language in --config): its Accept-Language and ui_locales. Default: your locale's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), without ui_locales.",
                               valueName: "tag"))
    var languages: [String] = []

    @Option(name: .customLong("negotiate-site"),
            help: ArgumentHelp("A site whose pages may ask for Kerberos (Negotiate) and get it from your ticket (kinit first): http(s)://host[:port], exactly that host (repeatable; negotiate_sites in --config). Needs --profile: WebKit does Negotiate only in a session that keeps its data. Default: every https site, no http one.",
                               valueName: "url"))
    var negotiateSites: [String] = []

    /// Whether no flag changes the route of a request (proxy, CA file, client certificate).
    var routesByDefault: Bool {
        proxy == nil && noProxy == nil && caFile == nil && clientCertificate == nil && clientCertificateKey == nil
    }

    /// The sites the flags, else `file`'s `negotiate_sites` key, trust for Negotiate (empty: libsoup's
    /// rule); the engine checks their form when it takes them (``NetworkSettings/applied(to:)``).
    func negotiateSites(from file: ConfigurationFile?) throws(CommandFailure) -> [URL] {
        let given = negotiateSites.isEmpty ? try file?.scopes("negotiate_sites") ?? [] : negotiateSites
        return try given.map { text throws(CommandFailure) in
            guard let url = URL(string: text) else {
                throw CommandFailure(.usage, "the Negotiate site '\(text)' must be written http(s)://host[:port], with nothing after it")
            }
            return url
        }
    }

    /// The languages the flags, else `file`'s `language` key, name (empty: the user's locale).
    func languages(from file: ConfigurationFile?) throws(CommandFailure) -> [String] {
        let given = languages.isEmpty ? try file?.scopes("language") ?? [] : languages
        let tags = given.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for tag in tags where !tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) {
            throw CommandFailure(.usage, "the language '\(tag)' is not a language tag: write it like fr or fr-CA")
        }
        return tags
    }

    /// The CA file the flag, else `file`'s `ca_file` key, names.
    func caFile(from file: ConfigurationFile?) throws(CommandFailure) -> TrustedCAFile? {
        guard let path = try Self.given(caFile, else: "ca_file", in: file) else { return nil }
        do { return try TrustedCAFile(path: path) } catch { throw CommandFailure(.usage, "\(error)") }
    }

    /// The client certificate the flags, else `file`'s `client_certificate` and `client_certificate_key`
    /// keys, name; its password or PIN from `environment`.
    func clientCertificate(from file: ConfigurationFile?, environment: [String: String]) throws(CommandFailure) -> ClientCertificate? {
        guard let named = try Self.given(clientCertificate, else: "client_certificate", in: file) else { return nil }
        let isURI = PKCS11URI.isURI(named)
        let keyPath = try Self.given(clientCertificateKey, else: "client_certificate_key", in: file)
        if isURI, keyPath != nil {
            throw CommandFailure(.usage, "--client-certificate-key goes with a PEM file: a PKCS#11 URI names the key on its token")
        }
        if !isURI { try SecretFileNotice.check(keyPath ?? named) }
        do throws(ClientCertificateError) {
            if isURI { return try ClientCertificate(pkcs11: named, pin: environment["WEBAUTH_PKCS11_PIN"]) }
            return try ClientCertificate(file: named, keyPath: keyPath, password: environment["WEBAUTH_CLIENT_CERTIFICATE_PASSWORD"])
        } catch .pinInURI {
            throw CommandFailure(.usage, "--client-certificate must not hold a PIN (other users can read the command line, and messages show the URI): set WEBAUTH_PKCS11_PIN")
        } catch {
            throw CommandFailure(.usage, "\(error)")
        }
    }

    /// The proxy the flags, else `file`'s `proxy` and `no_proxy` keys, name; else the environment's.
    func proxy(from file: ConfigurationFile?, environment: [String: String]) throws(CommandFailure) -> ProxySetting {
        let fromFlag = proxy != nil
        guard let text = try Self.given(proxy, else: "proxy", in: file) else {
            if noProxy != nil { throw CommandFailure(.usage, "--no-proxy goes with --proxy (with the environment's proxy, set no_proxy)") }
            return .environment
        }
        if text == "none" { return .none }
        guard var components = URLComponents(string: text), let scheme = components.scheme, ["http", "https"].contains(scheme),
              components.host?.isEmpty == false, components.port != nil else {
            throw CommandFailure(.usage, "the proxy must be written http://[user@]host:port or none")
        }
        if components.password != nil, fromFlag {
            throw CommandFailure(.usage, "--proxy must not hold a password (other users can read the command line): set WEBAUTH_PROXY_PASSWORD")
        }
        if components.user != nil, components.password == nil, let password = environment["WEBAUTH_PROXY_PASSWORD"] {
            components.password = password
        }
        let ignoring = (try Self.given(noProxy, else: "no_proxy", in: file) ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard let url = components.url else { throw CommandFailure(.usage, "the proxy must be written http://[user@]host:port or none") }
        return .custom(url: url, ignoring: ignoring)
    }

    /// The settings these flags, else `file`'s keys, else the environment give: one route for
    /// the page and every request of the command.
    func settings(from file: ConfigurationFile?, environment: [String: String]) throws(CommandFailure) -> NetworkSettings {
        NetworkSettings(proxy: try proxy(from: file, environment: environment), caFile: try caFile(from: file), languages: try languages(from: file),
                        clientCertificate: try clientCertificate(from: file, environment: environment),
                        negotiateSites: try negotiateSites(from: file))
    }

    /// `flag` if given, else the text under `key` in `file`.
    private static func given(_ flag: String?, else key: String, in file: ConfigurationFile?) throws(CommandFailure) -> String? {
        if let flag { return flag }
        return try file?.string(key)
    }
}
