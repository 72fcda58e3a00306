import Foundation
import Testing

/// What an application outside this package sees when it imports WebAuthSession, as the compiler
/// tells it: a Swift file type-checked against this build's modules.
@Suite("The engine's public API", .timeLimit(.minutes(5)))
struct EngineAPITests {
    let webauth = WebAuthBinary()

    /// `swiftc -typecheck` of `source` against this build's modules and the C modules they import
    /// (found as scripts/docs finds them): its exit status and diagnostics.
    func typecheck(_ source: String) async throws -> WebAuthBinary.Run {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let build = WebAuthBinary.binary.deletingLastPathComponent()
        let checkouts = build.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("checkouts")
        var arguments = ["swiftc", "-typecheck", "-swift-version", "6", "-I", build.appendingPathComponent("Modules").path,
                         "-I", root.appendingPathComponent("CShims").path, "-I", root.appendingPathComponent("CShims/CSecret").path]
        arguments += try await pkgConfigFlags().flatMap { ["-Xcc", $0] }
        let maps = try FileManager.default.contentsOfDirectory(atPath: build.path).filter { $0.hasSuffix(".build") }
            .map { build.appendingPathComponent("\($0)/module.modulemap").path }
            + FileManager.default.contentsOfDirectory(atPath: checkouts.path).flatMap { checkout in
                let sources = checkouts.appendingPathComponent("\(checkout)/Sources")
                return ((try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? [])
                    .map { sources.appendingPathComponent("\($0)/include/module.modulemap").path }
            }
        arguments += maps.filter { FileManager.default.fileExists(atPath: $0) }.flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] }
        let file = try webauth.file("application-\(UUID().uuidString).swift", source)
        return try await webauth.run(URL(fileURLWithPath: "/usr/bin/env"), arguments + [file])
    }

    /// pkg-config's compiler flags for WebKitGTK and libsecret, whose headers the C modules include.
    func pkgConfigFlags() async throws -> [String] {
        let run = try await webauth.run(URL(fileURLWithPath: "/usr/bin/pkg-config"), ["--cflags", "webkit2gtk-4.1", "libsecret-1"])
        try #require(run.status == 0, "pkg-config: \(run.stderr)")
        return run.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
    }

    @Test("an application that imports WebAuthSession names its options, the secret gate's refusal, a login script and both HTTP clients")
    func engineTypesAreSeen() async throws {
        let run = try await typecheck("""
            import OpenIDConnect
            import WebAuthSession
            let options = WebAuthenticationOptions()
            let refusal: SecretRefusal? = nil
            let script: LoginScript? = nil
            let clients: [any HTTPClient] = [URLSessionHTTPClient(), SoupHTTPClient()]
            """)
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test("ExitStatus and ReportedFailure are webauth's and its broker's, not the engine's API", arguments: [
        ("import WebAuthSession\nlet status: ExitStatus = .success\n", "cannot find type 'ExitStatus' in scope"),
        ("import WebAuthExitStatus\nimport WebAuthSession\nfunc report(_ error: SignInError) -> ReportedFailure { ReportedFailure(error) }\n",
         "no exact matches in call to initializer"),
        ("import WebAuthExitStatus\nimport WebAuthSession\nlet status = ReportedFailure.status(of: WebAuthenticationError.cancelled)\n",
         "cannot convert value of type 'WebAuthenticationError' to expected argument type 'OpenIDConnectError'"),
    ])
    func exitStatusesAreNotTheEngines(source: String, error: String) async throws {
        let run = try await typecheck(source)
        #expect(run.status != 0, "it compiled:\n\(source)")
        #expect(run.stderr.contains(error), "\(run.stderr)")
    }
}
