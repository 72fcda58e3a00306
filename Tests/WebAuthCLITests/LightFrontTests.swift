import ArgumentParser
import WebAuthBrokerContract
import Foundation
import TestSupport
import Testing
@testable import webauth_tokens
import WebAuthFront

/// The commands other tools call most (`token`, `env`, `exec`, `status`, `userinfo`,
/// the git, Docker and Kubernetes credential helpers, `--version`) run in `webauth` (its shortcut)
/// or `webauth-tokens`, which link neither WebKitGTK nor GTK; every other command runs in
/// `webauth-engine`. Each executable finds the next from its own real path, in a build and in an
/// installed `PREFIX`.
@Suite("webauth and webauth-tokens: no WebKitGTK or GTK for the token commands, the engine found for the rest", .startsWebKit(minutes: 5))
struct LightFrontTests {
    let webauth = WebAuthBinary()

    @Test("every command of webauth-tokens names itself: its name is never derived from its type at each start")
    func commandsNameThemselves() {
        // ArgumentParser names a command without a commandName by String(describing:) of its
        // type, whose casts each scan every protocol conformance in the binary: about a
        // millisecond of every `webauth token` (6 % of its CPU), for names that never change.
        let unnamed = LightCommand.configuration.subcommands.filter { $0.configuration.commandName == nil }
        #expect(unnamed.isEmpty, "\(unnamed) take their name from their type")
    }

    @Test("the front routes to webauth-tokens exactly the commands webauth-tokens has")
    func frontRoutesTheTokenCommands() {
        #expect(CommandRoute.tokenCommands == LightCommand.names)
        #expect(CommandRoute.executable(for: ["/usr/bin/docker-credential-webauth", "get"], environment: [:]) == "webauth-tokens")
        #expect(CommandRoute.executable(for: ["webauth", "--version"], environment: [:]) == "webauth-tokens")
        #expect(CommandRoute.executable(for: ["webauth", "--version", "x"], environment: [:]) == "webauth-engine")
        #expect(CommandRoute.executable(for: ["webauth", "login"], environment: [:]) == "webauth-engine")
    }

    @Test("a login a running broker can do goes to webauth-tokens with its SignIn options; every other login, and one in doubt, stays in-process")
    func loginThroughTheBroker() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("front-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: config) }
        let desktop = ["DISPLAY": ":9", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus", "XDG_CONFIG_HOME": config.path]
        let full = try #require(BrokeredLogin(["webauth", "login", "--profile=work", "--issuer", "https://id.example.com", "--client-id", "app",
                                               "--redirect-uri", "http://127.0.0.1:8400/cb", "--scope", "openid email", "--scope", "groups",
                                               "--param", "acr_values=mfa", "--param=prompt=login", "--timeout", "60", "--flow", "embedded",
                                               "--show-tokens"], environment: desktop))
        #expect(full.account == "work" && full.showsTokens && full.timeoutSeconds == 60)
        #expect(full.options == ["account": .string("work"), "timeout": .uint32(60), "issuer": .string("https://id.example.com"),
                                 "client_id": .string("app"), "redirect_uri": .string("http://127.0.0.1:8400/cb"),
                                 "scopes": .strings(["openid", "email", "groups"]), "parameters": .stringMap(["acr_values": "mfa", "prompt": "login"])])
        let byVariable = try #require(BrokeredLogin(["webauth", "login"], environment: desktop.merging(["WEBAUTH_PROFILE": "home"]) { $1 }))
        #expect(byVariable.options == ["account": .string("home"), "timeout": .uint32(300)] && !byVariable.showsTokens)
        #expect(CommandRoute.executable(for: ["webauth", "login", "--profile", "work"], environment: desktop) == "webauth-tokens")

        let inProcess: [[String]] = [
            ["--headless"], ["--script", "s.yaml"], ["--no-broker"], ["--ephemeral"], ["--store", "file"], ["--flow", "device"],
            ["--system-browser"], ["--config", "c.json"], ["--verbose"], ["--client-secret-file", "f"], ["--private-key-file", "k.pem"],
            ["--proxy", "none"], ["--ca-file", "ca.pem"], ["--response-type", "token"], ["--trace", "t.json"], ["--param", "novalue"],
            ["--param", "=x"], ["--timeout", "0"], ["--timeout", "soon"], ["--profile", "other"], ["--help"], ["--issuer"], ["extra"],
        ]
        for extra in inProcess {
            let arguments = ["webauth", "login", "--profile", "work"] + extra
            #expect(BrokeredLogin(arguments, environment: desktop) == nil, "\(extra)")
            #expect(CommandRoute.executable(for: arguments, environment: desktop) == "webauth-engine", "\(extra)")
        }
        #expect(BrokeredLogin(["webauth", "login"], environment: desktop) == nil, "no profile: an ephemeral sign-in, which the broker does not do")
        #expect(BrokeredLogin(["webauth", "token", "--profile", "work"], environment: desktop) == nil)
        for (name, value) in [("DISPLAY", ""), ("DBUS_SESSION_BUS_ADDRESS", ""), ("https_proxy", "http://proxy:3128"), ("NO_PROXY", "example.com"),
                              ("WEBAUTH_CLIENT_SECRET", "s"), ("WEBAUTH_PROXY_PASSWORD", "p")] {
            let environment = desktop.merging([name: value]) { $1 }
            #expect(BrokeredLogin(["webauth", "login", "--profile", "work"], environment: environment) == nil, "\(name)=\(value)")
        }
        #expect(BrokeredLogin(["webauth", "login", "--profile", "work"], environment: desktop.merging(["DISPLAY": "", "WAYLAND_DISPLAY": "wayland-0"]) { $1 }) != nil)

        let file = config.appendingPathComponent("webauth/config.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try #"{"credential_hosts": {"git.example.com": "work"}}"#.write(to: file, atomically: true, encoding: .utf8)
        #expect(BrokeredLogin(["webauth", "login", "--profile", "work"], environment: desktop) != nil, "the helpers' setting is not login's")
        for json in [#"{"issuer": "https://id.example.com"}"#, #"{"credentials": {"client_secret": "s"}}"#, #"{"store": "file"}"#, "not json"] {
            try json.write(to: file, atomically: true, encoding: .utf8)
            #expect(BrokeredLogin(["webauth", "login", "--profile", "work"], environment: desktop) == nil, "\(json)")
        }
    }

    /// What `ldd` says `binary` needs.
    private func libraries(_ binary: URL) async throws -> String {
        let run = try await webauth.run(URL(fileURLWithPath: "/usr/bin/ldd"), [binary.path])
        #expect(run.status == 0, "ldd: \(run.stderr)")
        return run.stdout
    }

    @Test("ldd of webauth and webauth-tokens names neither libwebkit2gtk nor libgtk (and of webauth-engine, both); webauth's shortcut links none of GLib's HTTP, the keyring, curl or GnuTLS; webauth-tokens, which sends with libsoup, no URLSession or curl")
    func linksNoEngine() async throws {
        let build = WebAuthBinary.binary.deletingLastPathComponent()
        for binary in [WebAuthBinary.binary, build.appendingPathComponent("webauth-tokens")] {
            let light = try await libraries(binary)
            #expect(!light.contains("libwebkit2gtk") && !light.contains("libgtk"), "\(binary.lastPathComponent) links the engine:\n\(light)")
        }
        let front = try await libraries(WebAuthBinary.binary)
        #expect(front.contains("libgio-2.0"), "the broker's GIO: \(front)")
        for library in ["libsoup", "libsecret", "libcurl", "libgnutls"] {
            #expect(!front.contains(library), "webauth's shortcut links \(library):\n\(front)")
        }
        let tokens = try await libraries(build.appendingPathComponent("webauth-tokens"))
        for library in ["libFoundationNetworking", "libcurl"] {
            #expect(!tokens.contains(library), "webauth-tokens links \(library):\n\(tokens)")
        }
        // The check sees what it looks for: the engine beside it links all three (URLSession through
        // OpenIDSignIn's default client).
        let engine = try await libraries(build.appendingPathComponent("webauth-engine"))
        #expect(engine.contains("libwebkit2gtk") && engine.contains("libgtk") && engine.contains("libcurl"), "\(engine)")
    }

    @Test("webauth-engine names WebKitGTK's flite voice among its own libraries, where the dynamic loader finds that voice's 31,288 symbols early (Package.swift's fliteFirst)")
    func engineNamesTheFliteVoice() async throws {
        let voice = "libflite_cmu_time_awb.so.1"
        let engine = WebAuthBinary.binary.deletingLastPathComponent().appendingPathComponent("webauth-engine")
        let everything = try await libraries(engine)
        try #require(everything.contains(voice), "this WebKitGTK links no flite voice: nothing to move")
        let run = try await webauth.run(URL(fileURLWithPath: "/usr/bin/readelf"), ["--dynamic", engine.path])
        #expect(run.status == 0, "readelf: \(run.stderr)")
        let named = run.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(named.contains { $0.contains("[\(voice)]") }, "webauth-engine's own libraries:\n\(named.joined(separator: "\n"))")
    }

    /// The libraries the dynamic loader opened for a run of `webauth arguments` (`LD_DEBUG=libs`).
    private func loaded(_ arguments: [String]) async throws -> (run: WebAuthBinary.Run, libraries: String) {
        let run = try await webauth(arguments, environment: ["LD_DEBUG": "libs"])
        return (run, run.stderr.split(separator: "\n").filter { $0.contains("calling init:") }.joined(separator: "\n"))
    }

    @Test("status, token, env, the helpers and --version load no WebKitGTK or GTK; login --help and doctor do, through the engine")
    func whatEachCommandLoads() async throws {
        for arguments in [["--version"], ["status"], ["token"], ["env"], ["git-credential", "get"], ["docker-credential", "list"],
                          ["kubernetes-credential"], ["exec", "--", "true"], ["token", "--help"]] {
            let (run, libraries) = try await loaded(arguments)
            #expect(!libraries.isEmpty, "\(arguments): LD_DEBUG said nothing: \(run.stderr.prefix(300))")
            #expect(!libraries.contains("libwebkit2gtk") && !libraries.contains("libgtk"), "\(arguments) loaded the engine:\n\(libraries)")
        }
        // Not signed in: the light status says so as the engine's did (exit 6, the same JSON).
        let status = try await webauth(["status"])
        #expect(status.status == 6 && status.stdout.contains("\"signed_in\":false"), "\(status.stdout)\n\(status.stderr)")
        for arguments in [["login", "--help"], ["--help"], ["tokn"]] {
            let (run, libraries) = try await loaded(arguments)
            #expect(libraries.contains("libwebkit2gtk"), "\(arguments) did not reach the engine: \(run.stderr.suffix(300))")
        }
        let help = try await webauth(["--help"])
        #expect(help.status == 0 && help.stdout.contains("login") && help.stdout.contains("kubernetes-credential") && help.stdout.contains("broker"),
                "the whole command tree: \(help.stdout)")
    }

    /// Copies an executable with cp(1): a descriptor this process opened for writing could be
    /// inherited by a child another test forks meanwhile, and running the copy would then fail
    /// with ETXTBSY for as long as that child lives.
    private func copy(_ source: URL, to destination: URL) async throws {
        let run = try await webauth.run(URL(fileURLWithPath: "/bin/cp"), [source.path, destination.path])
        #expect(run.status == 0, "cp: \(run.stderr)")
    }

    @Test("an installed webauth finds PREFIX/lib/webauth/webauth-tokens and webauth-engine through a symlink elsewhere; without them, a clear error")
    func findsTheEngine() async throws {
        let prefix = webauth.home.appendingPathComponent("prefix")
        let bin = prefix.appendingPathComponent("bin"), lib = prefix.appendingPathComponent("lib/webauth")
        for folder in [bin, lib, webauth.home.appendingPathComponent("elsewhere"), webauth.home.appendingPathComponent("alone")] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let build = WebAuthBinary.binary.deletingLastPathComponent()
        try await copy(WebAuthBinary.binary, to: bin.appendingPathComponent("webauth"))
        for executable in ["webauth-tokens", "webauth-engine"] {
            try await copy(build.appendingPathComponent(executable), to: lib.appendingPathComponent(executable))
        }
        let link = webauth.home.appendingPathComponent("elsewhere/webauth")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: bin.appendingPathComponent("webauth"))
        let help = try await webauth.run(link, ["logout", "--help"])
        #expect(help.status == 0 && help.stdout.contains("USAGE: webauth logout"), "\(help.stdout)\n\(help.stderr)")

        let alone = webauth.home.appendingPathComponent("alone/webauth")
        try await copy(WebAuthBinary.binary, to: alone)
        for (arguments, executable) in [(["login", "--help"], "webauth-engine"), (["status"], "webauth-tokens")] {
            let missing = try await webauth.run(alone, arguments)
            #expect(missing.status == 1 && missing.stderr.contains("Error: \(executable), which runs this command, is not installed")
                        && missing.stderr.contains(webauth.home.appendingPathComponent("lib/webauth/\(executable)").path),
                    "\(arguments): \(missing.stderr)")
        }
        // webauth-tokens, given an engine's command, hands it on the same way.
        let tokensAlone = webauth.home.appendingPathComponent("alone/webauth-tokens")
        try await copy(build.appendingPathComponent("webauth-tokens"), to: tokensAlone)
        let noEngine = try await webauth.run(tokensAlone, ["login", "--help"])
        #expect(noEngine.status == 1 && noEngine.stderr.contains("Error: webauth-engine, which runs this command, is not installed")
                    && noEngine.stderr.contains(webauth.home.appendingPathComponent("alone/webauth-engine").path),
                "\(noEngine.stderr)")
        // Its own commands still run without the engine.
        let version = try await webauth.run(alone, ["--version"])
        #expect(version.status == 0 && !version.stdout.isEmpty, "\(version.stderr)")
    }
}
