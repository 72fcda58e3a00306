import DevProvider
import Foundation
import OpenIDConnect
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// A password and a TOTP second factor on the development provider, signed in by a login
    /// script whose `totp` value reads the secret from the environment or a file.
    @Suite("TOTP sign-in, end to end")
    struct TOTPSignIn {
        static let dora = OpenIDProvider.User(username: "dora", password: "explorer", subject: "248289761004", name: "Dora",
                                              email: "dora@example.com", totpSecret: "JBSWY3DPEHPK3PXP")

        @Test("a script file's totp value passes the provider's TOTP page")
        func signIn() async throws {
            let provider = try await OpenIDProvider.start(users: [.alice, Self.dora])
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("totp-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("login.yaml")
            try """
                steps:
                  - fill: "#username"
                    value: dora
                  - fill: "#password"
                    env: DORA_PASSWORD
                  - click: "#sign-in"
                  - fill: "#code"
                    totp: {secret_env: TOTP_SECRET, algorithm: SHA1, digits: 6, period: 30}
                  - click: "#verify"
                """.write(to: file, atomically: true, encoding: .utf8)
            let script = try LoginScript(contentsOfFile: file.path)
            let client = OpenIDConnectClient(issuer: provider.issuer, clientID: "webauth-demo",
                                             redirectURI: try RedirectURI("com.example.webauth:/callback"))
            let environment = ["DORA_PASSWORD": "explorer", "TOTP_SECRET": Self.dora.totpSecret!]
            let result = try await client.signIn(options: TestEngine.options(), script: script.runner(environment: environment))
            #expect(result.idToken.subject == Self.dora.subject)
        }

        @Test("an unreadable or invalid secret fails the step with a message that names the source, not the secret")
        func badSecret() async throws {
            let site = try await TestSite.start()
            let session = try TestEngine.session(site.page(body: "<input id='code'>"), redirectURI: "com.example:/cb")
            let run = Task { try await session.start() }
            defer { session.cancel() }
            let failure = await #expect(throws: LoginScriptError.self) {
                try await LoginScript([.fill("#code", .totp(TOTPSource(secret: .environment("TOTP_SECRET"))))])
                    .run(in: session, environment: ["TOTP_SECRET": "not base32 1890"])
            }
            #expect(failure?.reason.contains("a TOTP code from $TOTP_SECRET") == true && failure?.reason.contains("not base32") == true)
            #expect(failure.map { !"\($0)".contains("1890") } == true)
            session.cancel()
            _ = try? await run.value
        }
    }
}
