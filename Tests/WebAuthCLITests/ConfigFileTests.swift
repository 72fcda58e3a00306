import DevProvider
import Foundation
import OpenIDConnect
import SignInFiles
import TestSupport
import Testing

/// `--config`: a JSON file or a property list like AppAuth's `PlusAuth.plist`.
@Suite("webauth login --config (the built binary)", .startsWebKit(minutes: 2))
struct ConfigFileTests {
    var webauth = WebAuthBinary()

    init() {
        webauth.environment["ALICE_PASSWORD"] = OpenIDProvider.User.alice.password
    }

    func login(config: String) async throws -> WebAuthBinary.Run {
        try await webauth(["login", "--config", config, "--headless",
                           "--script", try webauth.file("login.yaml", LoginCommandTests.passwordScript)])
    }

    @Test("a JSON file gives issuer, client, redirect URI, scopes and parameters")
    func json() async throws {
        let provider = try await OpenIDProvider.start()
        let config = try webauth.file("client.json", """
            {"issuer": "\(provider.issuer)", "client_id": "webauth-demo", "redirect_uri": "com.example.webauth:/callback",
             "scopes": "openid email", "parameters": {"login_hint": "alice"}}
            """)
        let run = try await login(config: config)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(try JSONValue(parsing: run.stdout)["scopes"] == .array([.string("openid"), .string("email")]))
    }

    @Test("a property list with credentials.clientId and credentials.issuer, as in the iOS tutorial")
    func propertyList() async throws {
        let provider = try await OpenIDProvider.start()
        let config = try webauth.file("PlusAuth.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>credentials</key>
            \t<dict>
            \t\t<key>clientId</key>
            \t\t<string>webauth-demo</string>
            \t\t<key>issuer</key>
            \t\t<string>\(provider.issuer)</string>
            \t</dict>
            </dict>
            </plist>
            """)
        let run = try await login(config: config)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(try JSONValue(parsing: run.stdout)["client_id"] == .string("webauth-demo"))
    }

    @Test("a missing, unreadable, malformed or incomplete file is a usage error naming the file", arguments: [
        ("missing", "cannot read the configuration file"),  // the path follows, then why
        ("directory", "cannot read the configuration file"),
        ("malformed", "is not valid JSON: line 1, column 12: the text ends where a value should be"),
        ("malformed-later", "is not valid JSON: line 3, column 15: expected ':' after the name"),
        ("not-an-object", "is not a JSON object or a property-list dictionary"),
        ("misspelt", "unknown key 'redirect_url' (did you mean 'redirect_uri'?) in"),
        ("unknown", "unknown key 'colour' (known: allow_insecure_http, authorization_endpoint, ca_file, client_certificate"),
        ("no-client-id", "no client ID"),
        ("wrong-type", "client_id in"),
    ])
    func badFile(kind: String, message: String) async throws {
        let path: String
        switch kind {
        case "missing": path = webauth.home.appendingPathComponent("nope.json").path
        case "directory": path = webauth.home.path
        case "malformed": path = try webauth.file("bad.json", "{\"issuer\": ")
        case "malformed-later": path = try webauth.file("later.json", "{\n  \"issuer\": \"x\",\n  \"client_id\" \"y\"\n}")
        case "not-an-object": path = try webauth.file("list.json", "[1, 2]")
        case "misspelt": path = try webauth.file("misspelt.json", #"{"issuer": "http://127.0.0.1:1", "client_id": "x", "redirect_url": "a:/b"}"#)
        case "unknown": path = try webauth.file("unknown.json", #"{"issuer": "http://127.0.0.1:1", "client_id": "x", "colour": "blue"}"#)
        case "no-client-id": path = try webauth.file("partial.json", #"{"issuer": "http://127.0.0.1:1"}"#)
        default: path = try webauth.file("typed.json", #"{"issuer": "http://127.0.0.1:1", "client_id": 42}"#)
        }
        let run = try await webauth(["login", "--config", path, "--headless"])
        #expect(run.status == 64, "stderr: \(run.stderr)")
        #expect(run.stderr.contains(message), "stderr: \(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
        // In our words (Foundation's ended "doesn't exist.."), and advice about the file, not `webauth help`.
        let why = ["missing": "\(path): there is no such file. ", "directory": "\(path): it is a folder. "][kind]
        if let why { #expect(run.stderr.contains(why), "stderr: \(run.stderr)") }
        #expect(!run.stderr.contains(".."), "stderr: \(run.stderr)")
        if kind != "no-client-id" {
            #expect(run.stderr.hasSuffix(". Check its path and contents; `webauth login --help` lists the keys it may hold (under --config).\n"), "stderr: \(run.stderr)")
        }
    }

    @Test("login --help names every key a configuration file may hold (it named six)")
    func helpListsEveryKey() async throws {
        let help = try await webauth(["login", "--help"])
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for key in SignInFiles.ConfigurationFile.keys {
            #expect(text.contains(key + ",") || text.contains(key + " "), "\(key) is not in login --help")
        }
        let config = try #require(text.range(of: "--config <file>").map { String(text[$0.upperBound...].prefix(1200)) })
        #expect(["token_endpoint_auth_method", "credential_hosts", "negotiate_sites"].allSatisfy { config.contains($0) }, "\(config)")
    }
}
