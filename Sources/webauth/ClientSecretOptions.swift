import ArgumentParser
import Foundation
import OpenIDConnect

/// A confidential client's secret: from a flag, `$WEBAUTH_CLIENT_SECRET` or a file. Never echoed.
struct ClientSecretOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The client secret of a confidential client. Visible to other users in the process list: prefer $WEBAUTH_CLIENT_SECRET or --client-secret-file.",
                               valueName: "secret"))
    var clientSecret: String?

    @Option(help: ArgumentHelp("A file holding the client secret.", valueName: "file"))
    var clientSecretFile: String?

    /// The secret, if any: the flag, else the environment, else the file, else `fallback`.
    func resolve(environment: [String: String] = ProcessInfo.processInfo.environment,
                 fallback: String? = nil) throws(CommandFailure) -> ClientAuthentication {
        (try given(environment) ?? fallback).map { .clientSecretBasic(secret: $0) } ?? .none
    }

    /// Where the secret ``resolve(environment:fallback:)`` takes is kept, when a later run can
    /// find it there again: `$WEBAUTH_CLIENT_SECRET` or the file (by absolute path). `nil` for a
    /// secret on the command line or in the configuration file: only the value was given.
    func reference(environment: [String: String] = ProcessInfo.processInfo.environment) -> SavedClient.SecretReference? {
        guard clientSecret == nil else { return nil }
        if environment["WEBAUTH_CLIENT_SECRET"] != nil { return .environment("WEBAUTH_CLIENT_SECRET") }
        return clientSecretFile.map { .file(URL(fileURLWithPath: $0).standardizedFileURL.path) }
    }

    /// How a saved sign-in's client authenticates: with the secret these options give, else the
    /// one its saved reference points to, in the saved method.
    /// - Throws: ``CommandFailure`` (usage) when the client needs a secret that cannot be found.
    func resolve(for client: SavedClient?, environment: [String: String] = ProcessInfo.processInfo.environment) throws(CommandFailure) -> ClientAuthentication {
        let method = client?.authenticationMethod ?? .clientSecretBasic
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

    private static func read(_ path: String) throws(CommandFailure) -> String {
        do { return try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) } catch {
            throw CommandFailure(.usage, "cannot read the client secret file \(path): \(error.localizedDescription)")
        }
    }
}
