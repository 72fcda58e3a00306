import DevProvider
import Foundation
import OpenIDConnect
import Testing

/// Runs the built `webauth` binary as a user would, in a child process.
@Suite("webauth demo (the built binary)", .timeLimit(.minutes(2)))
struct DemoCommandTests {
    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs `webauth` with `arguments` and `environment`, with no standard input.
    static func webauth(_ arguments: [String], environment: [String: String]) throws -> Run {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("webauth")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = environment
        let (out, err) = (Pipe(), Pipe())
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                   stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// This process's environment without a display, so the binary starts its own Xvfb.
    static var headlessEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.filter { $0.key != "DISPLAY" && $0.key != "WAYLAND_DISPLAY" }
    }

    @Test("signs in headless on its own Xvfb, prints the ID token's claims, narrates on stderr and exits 0")
    func demoSucceeds() throws {
        let run = try Self.webauth(["demo"], environment: Self.headlessEnvironment)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let claims = try JSONValue(parsing: run.stdout)
        #expect(claims["sub"] == .string(OpenIDProvider.User.alice.subject))
        #expect(claims["aud"] == .string(OpenIDProvider.Client.demo.clientID))
        #expect(claims["nonce"]?.stringValue?.count ?? 0 >= 43)
        #expect(run.stderr.contains("the page says: Wrong user name or password."))
        #expect(run.stderr.contains("navigation captured com.example.webauth:/callback?code=<"))
        #expect(!run.stderr.contains(OpenIDProvider.User.alice.password), "the password must not be logged")
        #expect(!run.stdout.contains("access_token") && !run.stderr.contains("eyJ"), "no token may be printed")
    }

    @Test("without a display and without Xvfb it fails with one clear line and status 1")
    func noDisplay() throws {
        var environment = Self.headlessEnvironment
        environment["PATH"] = "/nonexistent"
        let run = try Self.webauth(["demo"], environment: environment)
        #expect(run.status == 1)
        #expect(run.stderr.contains("Error: sign-in failed: no display"))
        #expect(run.stdout.isEmpty)
    }

    @Test("a bad flag is a usage error")
    func badFlag() throws {
        let run = try Self.webauth(["demo", "--no-such-flag"], environment: Self.headlessEnvironment)
        #expect(run.status == 64)
        #expect(run.stderr.contains("--no-such-flag"))
    }
}
