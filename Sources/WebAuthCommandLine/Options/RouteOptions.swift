import ArgumentParser
import Foundation
import OpenIDConnect
import SignInFiles
import WebAuthNetwork
import WebAuthKeyring
import WebAuthExitStatus

/// How every request reaches the provider: the proxy, a private CA, a client certificate. Each
/// is the flag, else the `--config` file's key (or the default file's), else what the saved
/// sign-in was made with (``SavedRoute``), else the environment. Every command that talks to the
/// provider takes them; `login` adds the page's own (``NetworkOptions``).
package struct RouteOptions: ParsableArguments {
    /// The command-line parser makes it.
    package init() {}

    @Option(help: ArgumentHelp("The proxy for the page and every request: http://[user@]host:port, or none (proxy in --config). The password comes from WEBAUTH_PROXY_PASSWORD, never the command line. Default: https_proxy, http_proxy, all_proxy and no_proxy as curl reads them (loopback hosts too), else the desktop's proxy settings.",
                               valueName: "url"))
    package var proxy: String?

    @Option(help: ArgumentHelp("Hosts reached without --proxy, comma-separated: example.com and .example.com take subdomains, 10.0.0.0/8 a range (no_proxy in --config).",
                               valueName: "list"))
    package var noProxy: String?

    @Option(help: ArgumentHelp("A PEM file of certificate authorities to trust beside the system's, for a provider with an internal CA: the page and every request (ca_file in --config).",
                               valueName: "pem"))
    package var caFile: String?

    @Option(help: ArgumentHelp("A client certificate for a provider that asks for one (mutual TLS, smart card): the page and every request. A PEM file (certificate and key), a PKCS#12 file, or a PKCS#11 URI such as pkcs11:token=alice;object=login (client_certificate in --config). The PKCS#12 password comes from WEBAUTH_CLIENT_CERTIFICATE_PASSWORD and the token's PIN from WEBAUTH_PKCS11_PIN, never the command line.",
                               valueName: "file|pkcs11:uri"))
    package var clientCertificate: String?

    @Option(help: ArgumentHelp("The client certificate's private key, when a PEM file of its own holds it (client_certificate_key in --config).",
                               valueName: "pem"))
    package var clientCertificateKey: String?

    /// Whether no flag changes the route of a request (proxy, CA file, client certificate).
    package var routesByDefault: Bool {
        proxy == nil && noProxy == nil && caFile == nil && clientCertificate == nil && clientCertificateKey == nil
    }

    /// The CA file the flag, else `file`'s `ca_file` key, else `saved`, names.
    package func caFile(from file: ConfigurationFile?, saved: SavedRoute?) throws(CommandFailure) -> TrustedCAFile? {
        guard let path = try Self.given(caFile, else: "ca_file", in: file, saved?.caFile) else { return nil }
        do { return try TrustedCAFile(path: path) } catch { throw CommandFailure(.usage, "\(error)") }
    }

    /// The client certificate the flags, else `file`'s `client_certificate` and `client_certificate_key`
    /// keys, else `saved`, name; its password or PIN from `environment`.
    package func clientCertificate(from file: ConfigurationFile?, saved: SavedRoute?, environment: [String: String]) throws(CommandFailure) -> ClientCertificate? {
        guard let named = try Self.given(clientCertificate, else: "client_certificate", in: file, saved?.clientCertificate) else { return nil }
        let isURI = PKCS11URI.isURI(named)
        let keyPath = try Self.given(clientCertificateKey, else: "client_certificate_key", in: file, saved?.clientCertificateKey)
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

    /// The proxy the flags, else `file`'s `proxy` and `no_proxy` keys, else `saved`,
    /// name; else the environment's.
    package func proxy(from file: ConfigurationFile?, saved: SavedRoute?, environment: [String: String]) throws(CommandFailure) -> ProxySetting {
        let fromFlag = proxy != nil
        guard let text = try Self.given(proxy, else: "proxy", in: file, saved?.proxy) else {
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
        let ignoring = (try Self.given(noProxy, else: "no_proxy", in: file, saved.map { $0.noProxy.isEmpty ? nil : $0.noProxy.joined(separator: ",") } ?? nil) ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard let url = components.url else { throw CommandFailure(.usage, "the proxy must be written http://[user@]host:port or none") }
        return .custom(url: url, ignoring: ignoring)
    }

    /// The route of a command's requests: these flags, else `file`'s keys, else `saved`, else the
    /// environment (no page languages, no Negotiate sites).
    package func settings(from file: ConfigurationFile?, saved: SavedRoute? = nil, environment: [String: String]) throws(CommandFailure) -> NetworkSettings {
        let proxy = try proxy(from: file, saved: saved, environment: environment)
        let caFile = try caFile(from: file, saved: saved)
        let clientCertificate = try clientCertificate(from: file, saved: saved, environment: environment)
        return NetworkSettings(proxy: proxy, caFile: caFile, languages: [], clientCertificate: clientCertificate, negotiateSites: [],
                               saved: Self.saved(proxy: proxy, caFile: caFile, clientCertificate: clientCertificate))
    }

    /// The route of a command's requests on a saved sign-in: these flags, else the `config` file
    /// (else the default one), else `saved`, else the environment.
    package func settings(config: String?, saved: SavedRoute?, environment: [String: String] = CommandEnvironment.original) throws(CommandFailure) -> NetworkSettings {
        try settings(from: ConfigurationFile.chosen(config, environment: environment), saved: saved, environment: environment)
    }

    /// What a sign-in on this route keeps (``SavedRoute``): paths and addresses, never the proxy's
    /// password, and nothing of the environment's proxy; `nil` when that is nothing.
    private static func saved(proxy: ProxySetting, caFile: TrustedCAFile?, clientCertificate: ClientCertificate?) -> SavedRoute? {
        var route = SavedRoute(caFile: caFile?.path)
        switch proxy {
        case .environment: break
        case .none: route.proxy = "none"
        case .custom(let url, let ignoring): route = SavedRoute(proxy: url.absoluteString, noProxy: ignoring, caFile: caFile?.path)
        }
        switch clientCertificate?.source {
        case .file(let path, let keyPath)?: (route.clientCertificate, route.clientCertificateKey) = (path, keyPath)
        case .pkcs11(let uri)?: route.clientCertificate = uri
        case nil: break
        }
        return route.isEmpty ? nil : route
    }

    /// `flag` if given, else the text under `key` in `file`, else `saved`.
    private static func given(_ flag: String?, else key: String, in file: ConfigurationFile?, _ saved: String?) throws(CommandFailure) -> String? {
        if let flag { return flag }
        return try file?.string(key) ?? saved
    }
}
