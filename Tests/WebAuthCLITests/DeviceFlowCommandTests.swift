import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// `webauth login` with no display (as over SSH): the device grant, the system browser that
/// always shows its URL, and `--flow` to choose. The built binary, against the development provider.
@Suite("webauth login with no display: --flow device and browser (the built binary)", .startsWebKit(minutes: 3))
struct DeviceFlowCommandTests {
    var webauth = WebAuthBinary()

    /// A provider that asks for a poll every second.
    static func provider(faults: Set<ProviderFault> = []) async throws -> OpenIDProvider {
        var configuration = DevProviderConfiguration()
        configuration.deviceCodeInterval = 1
        configuration.faults = faults
        return try await OpenIDProvider.start(configuration: configuration)
    }

    @Test("no display and no --flow: it says so and uses the device grant; the code goes to stderr, the summary to stdout")
    func automaticDeviceGrant() async throws {
        let provider = try await Self.provider()
        let run = try await webauth.signInOnPhone(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("No display here for a sign-in window") && run.stderr.contains("--flow device"), "stderr: \(run.stderr)")
        #expect(DeviceInstructions(run.stderr)?.verificationURI.absoluteString == provider.issuer + "/device")
        #expect(!run.stderr.contains("\u{1B}["), "no QR code when stderr is not a terminal")
        let summary = try JSONValue(parsing: run.stdout)
        #expect(summary["subject"] == .string(OpenIDProvider.User.alice.subject))
        #expect(summary["id_token_issued"] == .bool(true) && summary["has_refresh_token"] == .bool(true))
        #expect(try await webauth(["token"]).status == 0, "the sign-in was saved")
    }

    @Test("--flow device: denied exits 2, an expired code exits 5, each with one line that says so", arguments: [
        (ProviderFault.deny, Int32(2), "access was denied on the verification page"),
        (ProviderFault.expiredDeviceCode, Int32(5), "the code expired before it was approved"),
    ])
    func deviceGrantEndings(fault: ProviderFault, status: Int32, message: String) async throws {
        let provider = try await Self.provider(faults: [fault])
        let run = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--flow", "device"])
        #expect(run.status == status && run.stderr.contains("Error: \(message)"), "stderr: \(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test("a plain-http verification page is refused: exit 3, one line naming it, no code shown")
    func insecureVerificationURI() async throws {
        let provider = try await Self.provider(faults: [.insecureVerificationURI])
        let run = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--flow", "device"])
        #expect(run.status == 3, "stderr: \(run.stderr)")
        #expect(run.stderr.split(separator: "\n").filter { $0.contains("http://device.phish.invalid/device") && $0.contains("not https") }.count == 1,
                "stderr: \(run.stderr)")
        #expect(!run.stderr.contains("To sign in, open") && run.stdout.isEmpty)
    }

    @Test("a hostile verification page on another site: one warning line, and no control character reaches the terminal")
    func hostileVerificationURI() async throws {
        let provider = try await Self.provider(faults: [.hostileVerificationURI, .expiredDeviceCode])
        let run = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--flow", "device"])
        #expect(run.status == 5, "stderr: \(run.stderr)")
        let isControl = { (scalar: Unicode.Scalar) in (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value) }
        #expect(!run.stderr.unicodeScalars.contains(where: isControl) && !run.stdout.unicodeScalars.contains(where: isControl),
                "stderr: \(run.stderr.debugDescription)")
        #expect(run.stderr.components(separatedBy: "warning: the provider sends you to https://device.phish.invalid/device").count == 2,
                "one warning: \(run.stderr)")
        #expect(run.stderr.contains("open https://device.phish.invalid/device on your phone"), "stderr: \(run.stderr)")
    }

    @Test("--flow embedded with no display is the engine's typed error, exit 1, saying what to do")
    func embeddedWithoutDisplay() async throws {
        let provider = try await Self.provider()
        let run = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--flow", "embedded"])
        #expect(run.status == 1, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("no display to show the sign-in window on") && run.stderr.contains("device authorization grant"),
                "stderr: \(run.stderr)")
    }

    @Test("--flow browser (and --system-browser) with no browser that opens: the URL to open is printed, and the wait goes on", arguments: [
        ["--flow", "browser"], ["--system-browser"],
    ])
    func browserWithoutBrowser(flag: [String]) async throws {
        let provider = try await Self.provider()
        let run = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--browser-command", "/bin/false",
                                     "--timeout", "15"] + flag)
        #expect(run.status == 5, "it waited for the redirect until --timeout; stderr: \(run.stderr)")
        #expect(run.stderr.contains("To sign in, open this URL in a browser:\n\n    \(provider.issuer)/authorize?"), "stderr: \(run.stderr)")
        #expect(run.stderr.contains("No browser could be opened here") && run.stderr.contains("ssh -L"), "stderr: \(run.stderr)")
    }
}
