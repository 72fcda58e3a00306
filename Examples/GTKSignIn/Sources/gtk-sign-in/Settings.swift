import Foundation
import OpenIDConnect
import WebAuthSession

/// What the command line says: the provider and client to sign in with, and a login script for
/// runs with nobody at the keyboard.
///
///     gtk-sign-in --issuer URL [--client-id ID] [--redirect-uri URI] [--script FILE]
///
/// The defaults are the development provider's (`webauth provider`): the public client
/// `webauth-demo` and its redirect URI `com.example.webauth:/callback`.
struct Settings: Sendable {
    let client: OpenIDConnectClient
    /// Fills the provider's page in place of a person (a login script, YAML or JSON), if given.
    let script: LoginScript?

    static let usage = "usage: gtk-sign-in --issuer URL [--client-id ID] [--redirect-uri URI] [--script FILE]"

    /// The settings of `arguments`, or the process ends with status 64 and what is wrong.
    static func parse(_ arguments: ArraySlice<String>) -> Settings {
        var values = ["--client-id": "webauth-demo", "--redirect-uri": "com.example.webauth:/callback"]
        var rest = arguments
        while let name = rest.popFirst() {
            guard ["--issuer", "--client-id", "--redirect-uri", "--script"].contains(name) else { fail("unknown option \(name)\n\(usage)") }
            guard let value = rest.popFirst() else { fail("\(name) needs a value\n\(usage)") }
            values[name] = value
        }
        guard let issuer = values["--issuer"] else { fail(usage) }
        do {
            let redirectURI = try RedirectURI(values["--redirect-uri"]!)
            let script = try values["--script"].map { try LoginScript(contentsOfFile: $0) }
            return Settings(client: OpenIDConnectClient(issuer: issuer, clientID: values["--client-id"]!, redirectURI: redirectURI), script: script)
        } catch {
            fail("\(error)")
        }
    }

    /// Ends the process with status 64 (a usage error), saying why on stderr.
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("gtk-sign-in: \(message)\n".utf8))
        exit(64)
    }
}
