import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// The attacks on an account's ownership: an app that waited behind another sign-in's lock, an
/// app whose grant outlived the sign-in it was given, two apps creating one name at once. Each
/// is decided under the account's lock, against what is saved there then. No display: nobody can
/// be asked, so an app without a grant is refused.
@Suite("Broker: who may sign an account in or out is decided under its lock", .startsWebKit(minutes: 5))
struct BrokerTakeoverTests {
    let webauth = WebAuthBinary()

    /// The saved sign-ins' folder of the sandbox.
    private var stateFolder: URL { webauth.home.appendingPathComponent("state/webauthsession") }

    /// Another app than the tests' own Python client: the same program under another file name.
    private static let otherApp = BrokerClient.request + "\n# another app\n"

    @Test("an app never granted an account, waiting on its lock while the account's first sign-in is saved, is refused and changes nothing")
    func waiterIsRefused() async throws {
        let fixture = try await BrokerFixture.start(webauth)
        defer { Task { await fixture.bus.stop() } }
        let owner = try await fixture.signIn("seed")
        try #require(owner["response"]?.numberValue == 0, "\(owner)")
        let liveTokens = fixture.provider.liveRefreshTokenCount

        // The account 'team' is being signed in (its lock held); it has no saved sign-in yet when the other app calls.
        let holder = try ChildProcess("/usr/bin/python3", ["-c", Self.lockHolder, stateFolder.appendingPathComponent("team.lock").path,
                                                           stateFolder.appendingPathComponent("seed.json").path,
                                                           stateFolder.appendingPathComponent("team.json").path],
                                      environment: webauth.baseEnvironment, stdout: .pipe)
        #expect(await holder.firstLine() == "held")
        // No issuer, no client: it hopes to ride on whatever the account will hold.
        async let attempt = fixture.bus.python(Self.otherApp, ["SignIn", "", JSONValue.object(["account": .string("team"),
                                                                                                 "script_file": .string(fixture.script)]).description])
        #expect(await holder.exitStatus() == 0, "the holder saw the broker wait, saved team's sign-in and let go")
        let outcome = try JSONValue(parsing: try await attempt.stdout)
        #expect(outcome["response"]?.numberValue == 2 && outcome["results"]?["error_name"] == .string("org.webauthsession.Error.AccessDenied"),
                "\(outcome)\n\(fixture.bus.brokerLog)")
        #expect(fixture.provider.liveRefreshTokenCount == liveTokens, "no sign-in ran, no token was revoked")
        let saved = try Data(contentsOf: stateFolder.appendingPathComponent("team.json"))
        #expect(saved == (try Data(contentsOf: stateFolder.appendingPathComponent("seed.json"))), "team's sign-in is as it was saved")
        let grants = try await webauth(["broker", "--grants"])
        #expect(!grants.stdout.contains("\tteam\t"), "nobody was granted team: \(grants.stdout)")
    }

    /// Holds the lock `argv[1]` until a process waits on it (the broker, in /proc/locks, as
    /// blocked on the lock file's inode), then saves a sign-in as `argv[3]` (a copy of `argv[2]`:
    /// the account's first sign-in, finishing) and lets go. The kernel tells no one that a flock
    /// waiter arrived (no inotify, no signal), so the holder reads /proc/locks until it shows one:
    /// a check of the very state the test needs, every 10 ms and at most 60 s, not a guess at time.
    static let lockHolder = """
        import fcntl, os, shutil, sys, time
        lock, source, target = sys.argv[1:4]
        handle = open(lock, "a")
        fcntl.flock(handle, fcntl.LOCK_EX)
        print("held", flush=True)
        inode = ":%d" % os.fstat(handle.fileno()).st_ino
        deadline = time.monotonic() + 60
        while not any(" -> " in line and line.split()[6].endswith(inode) for line in open("/proc/locks")):
            if time.monotonic() > deadline: sys.exit("nobody waited for the lock")
            time.sleep(0.01)
        shutil.copy2(source, target)
        """

    @Test("a sign-out takes every app's grant on the account with it: the next owner's tokens go to nobody else")
    func signOutDropsGrants() async throws {
        let fixture = try await BrokerFixture.start(webauth)
        defer { Task { await fixture.bus.stop() } }
        let bus = fixture.bus
        try #require(try await fixture.signIn("work")["response"]?.numberValue == 0)
        let reader = try bus.pythonApp(BrokerClient.call)
        #expect(try await webauth(["broker", "--grant", reader, "work"]).status == 0)
        #expect(try await bus.call(["account": .string("work")])["results"]?["access_token"] != nil, "granted, it reads the first sign-in")

        let signedOut = try await bus.request(["account": .string("work")], method: "SignOut")
        #expect(signedOut["response"]?.numberValue == 0, "\(signedOut)")
        let other = try await bus.python(Self.otherApp, ["SignIn", "", JSONValue.object(fixture.signInOptions(account: "work")).description])
        let otherOutcome = try JSONValue(parsing: other.stdout)
        #expect(otherOutcome["response"]?.numberValue == 0, "another app signs the name in anew: \(otherOutcome)")

        let denied = try await bus.call(["account": .string("work")])
        #expect(denied["error_name"] == .string("org.webauthsession.Error.AccessDenied"), "the old grant did not carry over: \(denied)")
        let grants = try await webauth(["broker", "--grants"])
        #expect(grants.stdout == "\(try bus.pythonApp(Self.otherApp))\twork\tallowed\n", "\(grants.stdout)")
    }

    @Test("webauth logout forgets the broker's grants on the profile")
    func logoutDropsGrants() async throws {
        let fixture = try await BrokerFixture.start(webauth)
        defer { Task { await fixture.bus.stop() } }
        try #require(try await fixture.signIn("work")["response"]?.numberValue == 0)
        #expect(try await webauth(["broker", "--grant", "/usr/bin/gdbus", "work"]).status == 0)
        #expect(try await webauth(["broker", "--grant", "/usr/bin/gdbus", "other"]).status == 0)
        let logout = try await webauth(["logout", "--profile", "work", "--local"])
        #expect(logout.status == 0, "\(logout.stderr)")
        let grants = try await webauth(["broker", "--grants"])
        #expect(grants.stdout == "/usr/bin/gdbus\tother\tallowed\n", "only the other profile's grant is left: \(grants.stdout)")
    }

    @Test("two apps create one name at once: one signs it in and owns it, the other is refused")
    func racingCreators() async throws {
        let fixture = try await BrokerFixture.start(webauth)
        defer { Task { await fixture.bus.stop() } }
        let options = JSONValue.object(fixture.signInOptions(account: "new")).description
        async let first = fixture.bus.python(BrokerClient.request, ["SignIn", "", options])
        async let second = fixture.bus.python(Self.otherApp, ["SignIn", "", options])
        let outcomes = [try JSONValue(parsing: try await first.stdout), try JSONValue(parsing: try await second.stdout)]
        let won = outcomes.filter { $0["response"]?.numberValue == 0 }
        let refused = outcomes.filter { $0["results"]?["error_name"] == .string("org.webauthsession.Error.AccessDenied") }
        #expect(won.count == 1 && refused.count == 1, "\(outcomes)\n\(fixture.bus.brokerLog)")
        let grants = try await webauth(["broker", "--grants"]).stdout
        #expect(grants.components(separatedBy: "\tnew\tallowed").count == 2, "one app owns the name: \(grants)")
    }

    @Test("a name with no saved sign-in but a cookie folder (a failed sign-in's) is new: the folder is cleared before another sign-in")
    func leftoverCookiesCleared() async throws {
        let fixture = try await BrokerFixture.start(webauth)
        defer { Task { await fixture.bus.stop() } }
        fixture.provider.faults = [.deny]
        let failed = try await fixture.signIn("left")
        #expect(failed["response"]?.numberValue != 0, "\(failed)")
        #expect(FileManager.default.fileExists(atPath: webauth.home.appendingPathComponent("data/webauthsession/profiles/left").path),
                "the failed sign-in left its folder")
        fixture.provider.faults = []
        let outcome = try await fixture.bus.python(Self.otherApp, ["SignIn", "", JSONValue.object(fixture.signInOptions(account: "left")).description])
        #expect(try JSONValue(parsing: outcome.stdout)["response"]?.numberValue == 0, "\(outcome.stdout)")
        #expect(fixture.bus.brokerLog.contains("the account 'left' is new: the website data an earlier sign-in left in its folder was deleted"),
                "\(fixture.bus.brokerLog)")
    }

    @Test("a caller's script is its text or an open regular file: never a path the broker opens, and errors never quote it")
    func scriptSources() async throws {
        let fixture = try await BrokerFixture.start(webauth)
        defer { Task { await fixture.bus.stop() } }
        let shadowLike = try webauth.file("shadow", "root:*:19000:0:99999:7:::\n")
        var byPath = fixture.signInOptions(account: "path")
        byPath["script_file"] = nil
        byPath["script"] = .string(shadowLike)
        let refused = try await fixture.bus.request(byPath)
        #expect(refused["error_name"] == .string("org.webauthsession.Error.InvalidArgument"), "\(refused)")
        #expect(refused["message"]?.stringValue?.contains("script_content") == true, "\(refused)")
        #expect(!refused.description.contains("root:"), "the file was never opened: \(refused)")

        var byText = fixture.signInOptions(account: "text")
        byText["script_file"] = nil
        byText["script_content"] = .string("root:*:19000:0:99999:7:::\n")
        let invalid = try await fixture.bus.request(byText)
        #expect(invalid["error_name"] == .string("org.webauthsession.Error.InvalidArgument"), "\(invalid)")
        #expect(!invalid.description.contains("root"), "the script's text is not quoted: \(invalid)")

        var byPipe = fixture.signInOptions(account: "pipe")
        byPipe["script_file"] = nil
        byPipe["script_pipe"] = .bool(true)
        let pipe = try await fixture.bus.request(byPipe)
        #expect(pipe["message"] == .string("option 'script_fd' must be an open regular file"), "\(pipe)")

        byText["script_content"] = .string(LoginCommandTests.passwordScript)
        let signedIn = try await fixture.bus.request(byText)
        #expect(signedIn["response"]?.numberValue == 0, "a script given as text signs in: \(signedIn)\n\(fixture.bus.brokerLog)")
    }
}
