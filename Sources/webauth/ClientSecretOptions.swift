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
        var secret = clientSecret ?? environment["WEBAUTH_CLIENT_SECRET"]
        if secret == nil, let path = clientSecretFile {
            do { secret = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) } catch {
                throw CommandFailure(.usage, "cannot read the client secret file \(path): \(error.localizedDescription)")
            }
        }
        return (secret ?? fallback).map { .clientSecretBasic(secret: $0) } ?? .none
    }
}
