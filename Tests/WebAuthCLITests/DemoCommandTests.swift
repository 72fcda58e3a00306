import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// `webauth demo`, the README's first command, run as the built binary.
@Suite("webauth demo (the built binary)", .startsWebKit(minutes: 2))
struct DemoCommandTests {
    let webauth = WebAuthBinary()

    @Test("signs in headless on its own Xvfb, refreshes, calls userinfo, signs out, prints the claims and exits 0")
    func demoSucceeds() async throws {
        let run = try await webauth(["demo"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let claims = try JSONValue(parsing: run.stdout)
        #expect(claims["sub"] == .string(OpenIDProvider.User.alice.subject))
        #expect(claims["aud"] == .string(OpenIDProvider.Client.demo.clientID))
        #expect(claims["email"] == .string(OpenIDProvider.User.alice.email), "userinfo's claims are merged in")
        #expect(claims["nonce"] == .string("<43>"), "the nonce's length only, as every other output shows it")
        for line in ["the page says: Wrong user name or password.", "allowing access on the consent page",
                     "navigation captured com.example.webauth:/callback?code=<", "refreshed the tokens", "called userinfo",
                     "signed out at the provider"] {
            #expect(run.stderr.contains(line), "missing narration: \(line)")
        }
        #expect(!run.stderr.contains(OpenIDProvider.User.alice.password), "the password must not be logged")
        #expect(!run.stdout.contains("access_token") && !run.stderr.contains("eyJ"), "no token may be printed")
    }

    @Test("--email-code signs in with the one-time code from the provider's outbox")
    func emailCode() async throws {
        let run = try await webauth(["demo", "--email-code"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("reading the code from the provider's outbox"))
        #expect(try JSONValue(parsing: run.stdout)["sub"] == .string(OpenIDProvider.User.alice.subject))
    }

    @Test("--passkey registers a passkey on the account page and signs in with it alone, both verified by the provider")
    func passkey() async throws {
        let run = try await webauth(["demo", "--passkey"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        for line in ["OpenID provider at http://localhost:", "registering a passkey for alice on the provider's account page",
                     "passkey: register a passkey or security key for localhost: answered by the virtual authenticator",
                     "passkey: sign in with a passkey or security key for localhost: answered by the virtual authenticator",
                     "allowing access on the consent page"] {
            #expect(run.stderr.contains(line), "missing narration: \(line)")
        }
        #expect(try JSONValue(parsing: run.stdout)["sub"] == .string(OpenIDProvider.User.alice.subject))
        let mixed = try await webauth(["demo", "--passkey", "--email-code"])
        #expect(mixed.status == 64 && mixed.stderr.contains("--passkey is a scripted embedded sign-in"), "\(mixed.stderr)")
    }

    @Test("without a display and without Xvfb it fails with one clear line and status 1")
    func noDisplay() async throws {
        let run = try await webauth(["demo"], environment: ["PATH": "/nonexistent"])
        #expect(run.status == 1, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("Error: sign-in failed: no display"))
        #expect(!run.stderr.contains("Fatal error") && run.stdout.isEmpty)
    }

    @Test("a bad flag is a usage error")
    func badFlag() async throws {
        let run = try await webauth(["demo", "--no-such-flag"])
        #expect(run.status == 64, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("--no-such-flag"))
    }
}

extension DemoCommandTests {
    @Test("--presentation window and kiosk run the same script; --screenshots saves what the person sees", arguments: ["window", "kiosk"])
    func presentations(presentation: String) async throws {
        let directory = webauth.home.appendingPathComponent("shots-\(presentation)")
        let run = try await webauth(["demo", "--presentation", presentation, "--screenshots", directory.path])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        for name in ["1-login", "2-wrong-password", "3-consent"] {
            let png = try Data(contentsOf: directory.appendingPathComponent(name + ".png"))
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(name).png")
        }
    }
}

extension DemoCommandTests {
    @Test("--flow device: the device shows its code, a headless phone signs in and allows it, then the rest of the demo")
    func deviceFlow() async throws {
        let run = try await webauth(["demo", "--flow", "device"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        for line in ["device: open http://127.0.0.1:", "phone: signed in as alice; allowing the device",
                     "phone: the page says the device is signed in", "signed in with the device grant", "refreshed the tokens",
                     "called userinfo", "signed out at the provider"] {
            #expect(run.stderr.contains(line), "missing narration: \(line)")
        }
        #expect(try JSONValue(parsing: run.stdout)["sub"] == .string(OpenIDProvider.User.alice.subject))
    }
}
