import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// Never losing a finished sign-in: the store is checked before any page opens, a keyring that
/// fails still leaves the sign-in in a file, the saved sign-in carries what later commands need,
/// `webauth profiles` lists them, and a profile's lock makes two logins take turns.
@Suite("saved sign-ins: store, format, profiles, lock (the built binary)", .startsWebKit(minutes: 3))
struct SavedSignInTests {
    var webauth = WebAuthBinary()

    init() {
        webauth.environment["ALICE_PASSWORD"] = OpenIDProvider.User.alice.password
    }

    /// Holds the profile's lock in this process, as another sign-in of it would, until the
    /// returned function is called.
    func holdLock(of name: String) async throws -> @Sendable () async throws -> Void {
        let store = try FileAuthStateStore(name: name, directory: stateFolder)
        let (released, release) = AsyncStream<Void>.makeStream()
        let (held, holding) = AsyncStream<Void>.makeStream()
        let holder = Task {
            try await store.withExclusiveLock {
                holding.yield()
                for await _ in released { break }
            }
        }
        for await _ in held { break }
        return {
            release.yield()
            try await holder.value
        }
    }

    /// Starts `webauth login` for `profile` and reads its stderr until it says it waits for the profile's lock.
    func startWaitingLogin(_ provider: OpenIDProvider, _ profile: String,
                           environment: [String: String] = [:]) async throws -> (WebAuthBinary.Started, String) {
        let child = try webauth.start(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless", "--profile", profile,
                                       "--script", try webauth.file("login-\(UUID().uuidString).yaml", LoginCommandTests.passwordScript)],
                                      environment: environment)
        var stderr = ""
        var chunks = child.stderr.makeAsyncIterator()
        while !stderr.contains("waiting for it to finish"), let chunk = await chunks.next() { stderr += chunk }
        return (child, stderr)
    }

    /// The rest of `child`'s stderr after `start`, and its exit status.
    func finish(_ child: WebAuthBinary.Started, after start: String) async -> (status: Int32, stderr: String) {
        var stderr = start
        for await chunk in child.stderr { stderr += chunk }
        return (await child.status.value, stderr)
    }

    func login(_ provider: OpenIDProvider, _ extra: [String], environment: [String: String] = [:]) async throws -> WebAuthBinary.Run {
        try await webauth(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless",
                           "--script", try webauth.file("login-\(UUID().uuidString).yaml", LoginCommandTests.passwordScript)] + extra,
                          environment: environment)
    }

    var stateFolder: URL { webauth.home.appendingPathComponent("state/webauthsession") }

    @Test("a broken keyring still leaves a usable sign-in: a keyring locked after the check, exit 0, a warning naming the file, token works from it")
    func lockedKeyringFallsBackToFile() async throws {
        let provider = try await OpenIDProvider.start()
        let bus = try await PrivateSessionBus.start(home: webauth.home)
        // The login checks the keyring, then waits for the profile's lock: the keyring is locked meanwhile.
        let release = try await holdLock(of: "work")
        let (child, started) = try await startWaitingLogin(provider, "work", environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        try await bus.lockLoginCollection()
        try await release()
        let (status, stderr) = await finish(child, after: started)
        await bus.stop()
        #expect(status == 0, "stderr: \(stderr)")
        let file = stateFolder.appendingPathComponent("work.json").path
        #expect(stderr.contains("Warning: the keyring could not save the sign-in") && stderr.contains("saved in \(file) (mode 0600)"),
                "stderr: \(stderr)")
        let token = try await webauth(["token", "--profile", "work"])  // no keyring now: the file only
        #expect(token.status == 0 && token.stdout.trimmingCharacters(in: .newlines).count == 43, "stderr: \(token.stderr)")
    }

    @Test("doctor checks the keyring as login does: a Secret Service with no default collection is a warning naming it, an unlocked one is ok")
    func doctorChecksTheDefaultCollection() async throws {
        let empty = try await PrivateSessionBus.start(home: webauth.home, unlocked: false)
        let warned = try await webauth(["doctor", "--json"], environment: ["DBUS_SESSION_BUS_ADDRESS": empty.address])
        await empty.stop()
        let keyring = try #require(Self.check("keyring", in: warned.stdout), "\(warned.stdout)")
        #expect(keyring["status"] == .string("warning") && keyring["detail"]?.stringValue?.contains("no default collection") == true, "\(keyring)")
        let unlocked = try await PrivateSessionBus.start(home: webauth.home)
        let fine = try await webauth(["doctor", "--json"], environment: ["DBUS_SESSION_BUS_ADDRESS": unlocked.address])
        await unlocked.stop()
        let ok = try #require(Self.check("keyring", in: fine.stdout), "\(fine.stdout)")
        #expect(ok["status"] == .string("ok"), "\(ok)")
    }

    /// The check `name` in `doctor --json`'s output.
    private static func check(_ name: String, in output: String) -> JSONValue? {
        guard case .array(let checks)? = (try? JSONValue(parsing: output))?["checks"] else { return nil }
        return checks.first { $0["name"] == .string(name) }
    }

    @Test("the store is checked before any page opens: --store keyring with no login collection fails at once; without --store the file is used, with a warning")
    func storeCheckedBeforeThePage() async throws {
        let provider = try await OpenIDProvider.start()
        let bus = try await PrivateSessionBus.start(home: webauth.home, unlocked: false)
        let refused = try await login(provider, ["--store", "keyring"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(refused.status == 1 && refused.stderr.contains("no default collection") && refused.stderr.contains("--store file"),
                "stderr: \(refused.stderr)")
        #expect(provider.requestCount("/authorize") == 0, "no page was opened")
        let automatic = try await login(provider, [], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        await bus.stop()
        #expect(automatic.status == 0, "stderr: \(automatic.stderr)")
        let file = stateFolder.appendingPathComponent("default.json").path
        #expect(automatic.stderr.contains("it will be saved in \(file)"), "stderr: \(automatic.stderr)")
        #expect(try JSONValue(parsing: automatic.stdout)["store"] == .string("file:" + file))
        #expect(try await webauth(["token"]).status == 0)
        let none = try await login(provider, ["--store", "none", "--profile", "once"])
        #expect(none.status == 0, "stderr: \(none.stderr)")
        #expect(try JSONValue(parsing: none.stdout)["store"] == .string("none"))
        #expect(!FileManager.default.fileExists(atPath: stateFolder.appendingPathComponent("once.json").path))
    }

    @Test("a damaged state file stops login before the page, naming the file and the fix; logout --local removes it")
    func damagedStateFile() async throws {
        let provider = try await OpenIDProvider.start()
        try FileManager.default.createDirectory(at: stateFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let file = stateFolder.appendingPathComponent("default.json")
        try Data(#"{"format":"webauthsession.auth-state","state":{"version":1,"client_id":"#.utf8).write(to: file)
        let refused = try await login(provider, [])
        #expect(refused.status == 1, "stderr: \(refused.stderr)")
        #expect(refused.stderr.contains("\(file.path) is damaged") && refused.stderr.contains("webauth logout --local --profile default"),
                "stderr: \(refused.stderr)")
        #expect(provider.requestCount("/authorize") == 0, "no page was opened")
        let logout = try await webauth(["logout", "--local"])
        #expect(logout.status == 0 && logout.stderr.contains("could not be read and was removed"), "stderr: \(logout.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(try await login(provider, []).status == 0)
    }

    @Test("token, userinfo and logout need only --profile: the saved sign-in records the client, its secret only as a reference")
    func savedClient() async throws {
        let secret = "confidential-7f3c"
        let redirect = "com.example.server:/cb"
        var settings = DevProviderConfiguration()
        settings.clients = [OpenIDProvider.Client(clientID: "server-app", clientSecret: secret, redirectURIs: [redirect])]
        settings.accessTokenLifetime = 30  // due for refresh at once: the refresh needs the client's secret
        let provider = try await OpenIDProvider.start(configuration: settings)
        let secretFile = try webauth.file("client-secret", secret + "\n")
        let login = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "server-app", "--client-secret-file", secretFile,
                                       "--redirect-uri", redirect, "--scope", "openid offline_access", "--profile", "srv", "--headless",
                                       "--script", try webauth.file("login.yaml", LoginCommandTests.passwordScript)])
        #expect(login.status == 0, "stderr: \(login.stderr)")
        let saved = try String(contentsOf: stateFolder.appendingPathComponent("srv.json"), encoding: .utf8)
        #expect(!saved.contains(secret), "the secret's value is never in the file")
        let client = try #require(try JSONValue(parsing: saved)["state"]?["client"])
        #expect(client == .object(["redirect_uri": .string(redirect), "scopes": .array([.string("openid"), .string("offline_access")]),
                                   "token_endpoint_auth_method": .string("client_secret_basic"),
                                   "client_secret_reference": .object(["file": .string(secretFile)])]))

        let token = try await webauth(["token", "--profile", "srv"])
        #expect(token.status == 0 && provider.refreshCount == 1, "stderr: \(token.stderr)")
        let userinfo = try await webauth(["userinfo", "--profile", "srv"])
        #expect(userinfo.status == 0, "stderr: \(userinfo.stderr)")
        let logout = try await webauth(["logout", "--profile", "srv", "--headless", "--timeout", "30"])
        #expect(logout.status == 0, "stderr: \(logout.stderr)")
        #expect(try JSONValue(parsing: logout.stdout)["provider_session_ended"] == .bool(true), "the saved redirect URI came back")
    }

    @Test("profiles lists the saved sign-ins as a table or JSON matching its schema; WEBAUTH_PROFILE sets the default profile")
    func profiles() async throws {
        let provider = try await OpenIDProvider.start()
        #expect(try await login(provider, ["--profile", "work"]).status == 0)
        #expect(try await login(provider, [], environment: ["WEBAUTH_PROFILE": "home"]).status == 0)
        try Data(#"{"format":"webauthsession.auth-state","state":{"version":99}}"#.utf8)
            .write(to: stateFolder.appendingPathComponent("future.json"))
        let status = try await webauth(["status"], environment: ["WEBAUTH_PROFILE": "home"])
        #expect(status.status == 0, "stderr: \(status.stderr)")
        #expect(try JSONValue(parsing: status.stdout)["store"]?.stringValue?.hasSuffix("/home.json") == true)
        #expect(try await webauth(["status"]).status == 6, "without WEBAUTH_PROFILE: the default profile, never saved")

        let json = try await webauth(["profiles", "--json"])
        #expect(json.status == 0, "stderr: \(json.stderr)")
        let listed = try JSONValue(parsing: json.stdout)
        guard case .array(let entries)? = listed["profiles"] else { Issue.record("no list: \(json.stdout)"); return }
        #expect(entries.map { $0["name"] } == ["future", "home", "work"].map { .string($0) })
        for entry in entries.dropFirst() {
            #expect(entry["subject"] == .string(OpenIDProvider.User.alice.subject) && entry["issuer"] == .string(provider.issuer))
            #expect(entry["signed_in"] == .bool(true) && entry["access_token_expires_at"]?.stringValue?.hasPrefix("20") == true)
            #expect(entry["store"]?.stringValue?.hasPrefix("file:" + stateFolder.path) == true && entry["problem"] == .null)
        }
        #expect(entries[0]["problem"]?.stringValue?.contains("newer version") == true && entries[0]["signed_in"] == .bool(false))

        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/schemas/profiles.schema.json")
        let output = try webauth.file("profiles.json", json.stdout)
        let validation = try await webauth.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", """
            import json, sys, jsonschema
            jsonschema.Draft202012Validator(json.load(open(sys.argv[1])), format_checker=jsonschema.FormatChecker()).validate(json.load(open(sys.argv[2])))
            """, schema.path, output])
        #expect(validation.status == 0, "the output does not match its schema: \(validation.stderr)")

        let table = try await webauth(["profiles"])
        let lines = table.stdout.split(separator: "\n")
        try #require(lines.count == 5, "\(table.stdout)")
        #expect(lines[0].hasPrefix("NAME") && lines[0].contains("SUBJECT") && lines[0].contains("STORE"), "\(table.stdout)")
        #expect(lines[3].hasPrefix("work ") && lines[3].contains(OpenIDProvider.User.alice.subject) && lines[3].contains(provider.issuer))
        // Before: the damaged entry's reason stretched the SUBJECT column of every row to ~250 characters.
        #expect(lines[1].hasPrefix("future ") && lines[1].contains("(cannot be read*)"), "\(table.stdout)")
        let subjectColumn = lines[0].distance(from: lines[0].startIndex, to: try #require(lines[0].range(of: "ISSUER")).lowerBound)
        #expect(subjectColumn < 40, "the SUBJECT column stays narrow: \(table.stdout)")
        #expect(lines[4].hasPrefix("* future: ") && lines[4].contains("newer version"), "the whole reason below: \(table.stdout)")
    }

    @Test("profiles shows a sign-in the provider no longer refreshes as one to sign in again, with the reason and the command")
    func deadSignInListed() async throws {
        let provider = try await OpenIDProvider.start()
        #expect(try await login(provider, ["--profile", "dead"]).status == 0)
        provider.faults = [.invalidGrant]
        #expect(try await webauth(["token", "--profile", "dead", "--refresh"]).status == 6)
        let table = try await webauth(["profiles"])
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.count == 3 && lines[1].hasPrefix("dead ") && lines[1].contains("(sign in again*)"), "\(table.stdout)")
        #expect(lines.last?.hasPrefix("* dead: the provider refused the refresh token") == true
                && lines.last?.hasSuffix(": webauth login --profile dead") == true, "\(table.stdout)")
        let json = try JSONValue(parsing: try await webauth(["profiles", "--json"]).stdout)
        guard case .array(let entries)? = json["profiles"] else { Issue.record("\(json)"); return }
        #expect(entries.first?["signed_in"] == .bool(false))
    }

    @Test("two logins of one profile take turns on its lock: each says it waits, none waits past its --timeout, no refresh token is orphaned")
    func concurrentLogins() async throws {
        let provider = try await OpenIDProvider.start()
        let release = try await holdLock(of: "shared")  // both logins start while the profile is taken
        let impatient = try await login(provider, ["--profile", "shared", "--timeout", "1"])
        #expect(impatient.status == 5 && impatient.stderr.contains("Another sign-in of the profile 'shared' is in progress"),
                "stderr: \(impatient.stderr)")
        #expect(impatient.stderr.contains("gave up waiting for the profile's lock"), "stderr: \(impatient.stderr)")

        let (first, firstStart) = try await startWaitingLogin(provider, "shared")
        let (second, secondStart) = try await startWaitingLogin(provider, "shared")
        for started in [firstStart, secondStart] {
            #expect(started.contains("Another sign-in of the profile 'shared' is in progress"), "stderr: \(started)")
        }
        #expect(provider.requestCount("/authorize") == 0, "no page opens while the profile is taken")
        try await release()
        async let one = finish(first, after: firstStart)
        async let two = finish(second, after: secondStart)
        for (status, stderr) in await [one, two] {
            #expect(status == 0, "stderr: \(stderr)")
            #expect(!stderr.contains("database is locked"))
        }
        #expect(provider.liveRefreshTokenCount == 1, "the sign-in saved first had its refresh token revoked when the other replaced it")
        #expect(try await webauth(["token", "--profile", "shared"]).status == 0)
    }
}
