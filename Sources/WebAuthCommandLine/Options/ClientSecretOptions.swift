import ArgumentParser
import Foundation
import OpenIDConnect
import SignInFiles
import WebAuthSupport

/// A confidential client's secret: from a flag, `$WEBAUTH_CLIENT_SECRET` or a file. Never echoed.
/// Or its private key (`private_key_jwt`, RFC 7523): a PEM file, by path, or a key on a PKCS#11
/// token, by URI (its PIN from `$WEBAUTH_PKCS11_PIN`).
package struct ClientSecretOptions: ParsableArguments {
    /// The command-line parser makes it.
    package init() {}

    @Option(help: ArgumentHelp("The client secret of a confidential client. Visible to other users in the process list: prefer $WEBAUTH_CLIENT_SECRET or --client-secret-file.",
                               valueName: "secret"))
    package var clientSecret: String?

    @Option(help: ArgumentHelp("A file holding the client secret.", valueName: "file"))
    package var clientSecretFile: String?

    @Option(help: ArgumentHelp("Authenticate with private_key_jwt (RFC 7523): the client's private key, a PEM file (P-256 or RSA) or a key on a PKCS#11 token such as pkcs11:token=app;object=client-key, its PIN from WEBAUTH_PKCS11_PIN; private_key_file in --config. Only its path or URI is saved.",
                               valueName: "file|pkcs11:uri"))
    package var privateKeyFile: String?

    @Option(help: ArgumentHelp("With --private-key-file: the key's kid at the provider; private_key_id in --config.", valueName: "kid"))
    package var privateKeyID: String?

    @Option(help: ArgumentHelp("With --private-key-file: ES256, RS256 or PS256 (default: ES256 for an EC key, RS256 for RSA); private_key_algorithm in --config.",
                               valueName: "alg"))
    package var privateKeyAlgorithm: String?

    @Option(help: ArgumentHelp("How the client authenticates at the token endpoint: client_secret_basic, client_secret_post, client_secret_jwt (an HS256 assertion), private_key_jwt or none (default: none without a secret or key, private_key_jwt with a key, and with a secret the first of basic, post, jwt that the provider's discovery lists); token_endpoint_auth_method in --config. Saved with the sign-in.",
                               valueName: "method"))
    package var tokenEndpointAuthMethod: String?

    /// Whether no flag gives a secret or a key: the saved sign-in says where they are.
    package var namesNone: Bool {
        clientSecret == nil && clientSecretFile == nil && privateKeyFile == nil && privateKeyID == nil && privateKeyAlgorithm == nil
            && tokenEndpointAuthMethod == nil
    }

    /// The client's authentication: in the method these options or `file` name, else with the
    /// private key they name, else with the secret (the flag, else the environment, else the file,
    /// else `fallback`) sent as the provider asks (``ClientAuthentication/clientSecret(secret:)``), else none.
    /// - Throws: ``CommandFailure`` (usage) for an unknown method, or one without what it needs.
    package func resolve(environment: [String: String] = CommandEnvironment.original,
                 fallback: String? = nil, file: ConfigurationFile? = nil) throws(CommandFailure) -> ClientAuthentication {
        let key = try privateKey(file: file, environment: environment)
        guard let method = try method(file: file) else {
            if let key { return .privateKeyJWT(key) }
            return (try given(environment) ?? fallback).map { .clientSecret(secret: $0) } ?? .none
        }
        switch method {
        case .none: return .none
        case .privateKeyJWT:
            guard let key else { throw CommandFailure(.usage, "private_key_jwt needs the client's key: give --private-key-file") }
            return .privateKeyJWT(key)
        default:
            guard key == nil else { throw CommandFailure(.usage, "\(method.rawValue) authenticates with the client secret, not --private-key-file") }
            guard let secret = try given(environment) ?? fallback else {
                throw CommandFailure(.usage, "\(method.rawValue) needs the client secret: give --client-secret-file or $WEBAUTH_CLIENT_SECRET")
            }
            return method.authentication(secret: secret)
        }
    }

    /// The token-endpoint method the flag, else `file`'s `token_endpoint_auth_method`, names.
    private func method(file: ConfigurationFile?) throws(CommandFailure) -> SavedClient.AuthenticationMethod? {
        let name: String?
        if let tokenEndpointAuthMethod { name = tokenEndpointAuthMethod } else { name = try file?.string("token_endpoint_auth_method") }
        guard let name else { return nil }
        guard let method = SavedClient.AuthenticationMethod(rawValue: name) else {
            throw CommandFailure(.usage, Spelling.unknown("token endpoint authentication method", name,
                                                          among: SavedClient.AuthenticationMethod.allCases.map(\.rawValue)))
        }
        return method
    }

    /// The private key the flags (over `file`'s `private_key_*` keys) name: a file by absolute
    /// path, or a PKCS#11 URI with the PIN `environment` gives.
    private func privateKey(file: ConfigurationFile?, environment: [String: String]) throws(CommandFailure) -> ClientKey? {
        // The flag, else the file's key (written out: `??` would lose the typed error).
        func value(_ flag: String?, _ key: String) throws(CommandFailure) -> String? {
            if let flag { return flag }
            return try file?.string(key)
        }
        guard let path = try value(privateKeyFile, "private_key_file") else { return nil }
        var algorithm: ClientKey.Algorithm?
        if let name = try value(privateKeyAlgorithm, "private_key_algorithm") {
            guard let known = ClientKey.Algorithm(rawValue: name) else {
                throw CommandFailure(.usage, Spelling.unknown("private key algorithm", name, among: ClientKey.Algorithm.allCases.map(\.rawValue)))
            }
            algorithm = known
        }
        let keyID = try value(privateKeyID, "private_key_id")
        guard PKCS11URI.isURI(path) else {
            let key = ClientKey.pemFile(URL(fileURLWithPath: path).standardizedFileURL.path, keyID: keyID, algorithm: algorithm)
            try Self.check(key)
            return key
        }
        do throws(ClientKeyError) {
            return try .pkcs11(path, pin: environment["WEBAUTH_PKCS11_PIN"], keyID: keyID, algorithm: algorithm)
        } catch .pinInURI {
            throw CommandFailure(.usage, "--private-key-file must not hold a PIN (other users can read the command line, and the URI is saved): set WEBAUTH_PKCS11_PIN")
        } catch {
            throw CommandFailure(.usage, "\(error)")
        }
    }

    /// Where the secret ``resolve(environment:fallback:)`` takes is kept, when a later run can
    /// find it there again: `$WEBAUTH_CLIENT_SECRET` or the file (by absolute path). `nil` for a
    /// secret on the command line or in the configuration file: only the value was given.
    package func reference(environment: [String: String] = CommandEnvironment.original) -> SavedClient.SecretReference? {
        guard clientSecret == nil else { return nil }
        if environment["WEBAUTH_CLIENT_SECRET"] != nil { return .environment("WEBAUTH_CLIENT_SECRET") }
        return clientSecretFile.map { .file(URL(fileURLWithPath: $0).standardizedFileURL.path) }
    }

    /// How a saved sign-in's client authenticates: with the secret these options give, else the
    /// one its saved reference points to, in the method the flag names, else the saved one.
    /// - Throws: ``CommandFailure`` (usage) when the client needs a secret that cannot be found.
    package func resolve(for client: SavedClient?, environment: [String: String] = CommandEnvironment.original) throws(CommandFailure) -> ClientAuthentication {
        let method = try self.method(file: nil) ?? client?.authenticationMethod ?? .clientSecretBasic
        if method == .privateKeyJWT {
            guard var key = try privateKey(file: nil, environment: environment) ?? client?.privateKey else {
                throw CommandFailure(.usage, "the saved sign-in's client signs with a private key that was not recorded: give --private-key-file")
            }
            if case .pkcs11 = key.source, key.pin == nil { key.pin = environment["WEBAUTH_PKCS11_PIN"] }  // never saved
            try Self.check(key)
            return .privateKeyJWT(key)
        }
        if let secret = try given(environment) { return method.authentication(secret: secret) }
        guard let client, method != .none else { return .none }
        switch client.clientSecret {
        case .environment(let name)?:
            guard let secret = environment[name] else {
                throw CommandFailure(.usage, "the saved sign-in's client secret comes from $\(name), which is not set")
            }
            return method.authentication(secret: secret)
        case .file(let path)?:
            return method.authentication(secret: try Self.read(path))
        case nil:
            throw CommandFailure(.usage, "the saved sign-in's client needs its secret, which was not given in a way that can be found again: "
                + "give --client-secret-file or $WEBAUTH_CLIENT_SECRET")
        }
    }

    /// The secret these options give: the flag, else the environment, else the file.
    private func given(_ environment: [String: String]) throws(CommandFailure) -> String? {
        if let secret = clientSecret ?? environment["WEBAUTH_CLIENT_SECRET"] { return secret }
        return try clientSecretFile.map { path throws(CommandFailure) in try Self.read(path) }
    }

    /// Checks a PEM key file's permissions now: refused (usage) when others can write it, a
    /// warning on stderr when they can read it. A file not there yet is left to the signing.
    private static func check(_ key: ClientKey) throws(CommandFailure) {
        do { SecretFileNotice.show(try key.checkFile()) } catch .writableByOthers(let path, let mode) {
            throw CommandFailure(.usage, "\(ClientKeyError.writableByOthers(path: path, mode: mode))")
        } catch {}
    }

    private static func read(_ path: String) throws(CommandFailure) -> String {
        do { return try SecretFileNotice.read(path) } catch {
            throw CommandFailure(.usage, "the client secret file: \(error.message)")
        }
    }
}
