import DevProvider
import Foundation
import PrivateDisplay
import TestSupport
import Testing
import WebAuthFront

/// A headless `webauth login` with no display: `webauth` starts the private Xvfb before it becomes
/// `webauth-engine`, and the engine takes that server instead of starting its own (a stand-in Xvfb
/// first on `PATH` counts the servers started); a server the engine never takes is stopped, and
/// its authority folder removed.
@Suite("webauth hands the engine its private Xvfb", .startsWebKit(minutes: 3))
struct HandedOverDisplayTests {
    var webauth = WebAuthBinary()

    /// A folder holding an `Xvfb` first on `PATH` that notes each start in `starts`, then runs the real one.
    struct CountingXvfb {
        let folder: String
        var starts: Int { ((try? String(contentsOfFile: folder + "/starts", encoding: .utf8)) ?? "").split(separator: "\n").count }

        init(_ webauth: WebAuthBinary) throws {
            folder = webauth.home.appendingPathComponent("xvfb-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
            let real = try #require(directories.map { $0 + "/Xvfb" }.first { access($0, X_OK) == 0 })
            _ = try WebAuthBinary.writeExecutable(at: folder + "/Xvfb", "#!/bin/sh\necho started >> '\(folder)/starts'\nexec \(real) \"$@\"\n")
        }

        var path: String { folder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin") }
    }

    init() {
        webauth.environment["ALICE_PASSWORD"] = OpenIDProvider.User.alice.password
    }

    @Test("a headless login signs in on the one Xvfb webauth started, and leaves no process or folder")
    func engineTakesTheServer() async throws {
        let provider = try await OpenIDProvider.start()
        let xvfb = try CountingXvfb(webauth)
        let folder = try RunFolder()
        defer { folder.remove() }
        let login = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless", "--store", "none",
                                       "--script", try webauth.file("login.yaml", LoginCommandTests.passwordScript)],
                                      environment: folder.environment.merging(["PATH": xvfb.path]) { $1 })
        #expect(login.status == 0, "stderr: \(login.stderr)")
        #expect(xvfb.starts == 1, "servers started: \(xvfb.starts)")
        #expect(folder.processesLeft.isEmpty, "left running: \(folder.processesLeft)")
        #expect(folder.contents.isEmpty, "left in TMPDIR: \(folder.contents)")
    }

    @Test("a server the engine never takes (a usage error) is stopped and its authority folder removed")
    func untakenServerEnds() async throws {
        let xvfb = try CountingXvfb(webauth)
        let folder = try RunFolder()
        defer { folder.remove() }
        let login = try await webauth(["login", "--issuer", "http://127.0.0.1:9", "--client-id", "x", "--headless", "--no-such-option"],
                                      environment: folder.environment.merging(["PATH": xvfb.path]) { $1 })
        #expect(login.status == 64, "stderr: \(login.stderr)")
        #expect(xvfb.starts == 1, "webauth started the server: \(xvfb.starts)")
        #expect(folder.processesLeft.isEmpty, "left running: \(folder.processesLeft)")
        #expect(folder.contents.isEmpty, "left in TMPDIR: \(folder.contents)")
    }

    @Test("webauth starts a server only for a headless login with no display")
    func whenNeeded() {
        let none: [String: String] = [:]
        #expect(HeadlessLoginDisplay.isNeeded(["webauth", "login", "--issuer", "https://id.example", "--headless"], environment: none))
        #expect(!HeadlessLoginDisplay.isNeeded(["webauth", "login", "--headless"], environment: ["DISPLAY": ":0"]))
        #expect(!HeadlessLoginDisplay.isNeeded(["webauth", "login", "--headless"], environment: ["WAYLAND_DISPLAY": "wayland-0"]))
        #expect(!HeadlessLoginDisplay.isNeeded(["webauth", "login", "--issuer", "https://id.example"], environment: none))
        #expect(!HeadlessLoginDisplay.isNeeded(["webauth", "login", "--headless", "--help"], environment: none))
        #expect(!HeadlessLoginDisplay.isNeeded(["webauth", "record", "--headless"], environment: none))
    }
}
