import Foundation
import TestSupport
import Testing

/// What a command that only reads a saved sign-in asks of the keyring: `webauth token` is called
/// by kubectl and git at every use, so it reaches the Secret Service once, for the item, and
/// never looks up the default collection, which only saving needs. Watched with dbus-monitor on a
/// private bus with a real gnome-keyring.
@Suite("reading a sign-in from the keyring: one Secret Service, the item only (the built binary)", .startsWebKit(minutes: 3))
struct KeyringReadTests {
    let webauth = WebAuthBinary()

    /// Saves `archive` as the keyring item of the store `name`, as `webauth login --store keyring`
    /// does (the schema and attribute of `SecretServiceAuthStateStore`), with libsecret from Python.
    static let storeItem = """
        import sys, gi
        gi.require_version("Secret", "1")
        from gi.repository import Secret
        schema = Secret.Schema.new("io.github.webauthsession.AuthState", Secret.SchemaFlags.NONE,
                                   {"store": Secret.SchemaAttributeType.STRING})
        if not Secret.password_store_sync(schema, {"store": sys.argv[1]}, Secret.COLLECTION_DEFAULT,
                                          "WebAuthSession sign-in (%s)" % sys.argv[1], sys.argv[2], None):
            sys.exit(1)
        """

    /// A saved sign-in whose access token stays valid for an hour: no refresh, no provider.
    static func archive(token: String) -> String {
        let receivedAt = Date().timeIntervalSinceReferenceDate
        return #"{"format":"webauthsession.auth-state","state":{"version":2,"client_id":"webauth-demo","#
            + #""configuration":{"issuer":"http://127.0.0.1:9","authorization_endpoint":"http://127.0.0.1:9/authorize","#
            + #""token_endpoint":"http://127.0.0.1:9/token"},"#
            + #""last_token_response":{"access_token":"\#(token)","token_type":"Bearer","expires_in":3600,"received_at":\#(receivedAt)}}}"#
    }

    @Test("token reads the item through one Secret Service: no ReadAlias, one GetAll of the service, one encrypted session, one GetSecrets")
    func oneServiceNoCollectionLookup() async throws {
        try await readsTheItemOnce(with: WebAuthBinary.binary)
    }

    /// `webauth` alone in a folder fails whatever it hands on (no `webauth-tokens` beside it): what it
    /// prints, its shortcut read, loading libsecret only then.
    @Test("webauth's shortcut reads the keyring's item itself, the same calls: a copy of webauth alone prints the token")
    func shortcutReadsTheKeyring() async throws {
        let alone = webauth.home.appendingPathComponent("alone")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        let copied = try await webauth.run(URL(fileURLWithPath: "/bin/cp"), [WebAuthBinary.binary.path, alone.path])
        try #require(copied.status == 0, "cp: \(copied.stderr)")
        try await readsTheItemOnce(with: alone.appendingPathComponent("webauth"))
    }

    /// Stores a sign-in in a real keyring, runs `binary token` watched by dbus-monitor, and checks
    /// the token and what was asked of the Secret Service.
    private func readsTheItemOnce(with binary: URL) async throws {
        let bus = try await PrivateSessionBus.start(home: webauth.home)
        defer { Task { await bus.stop() } }
        let environment = ["PATH": "/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS": bus.address]
        let token = "keyring-read-\(UUID().uuidString.prefix(8))"
        let stored = try ChildProcess("/usr/bin/python3", ["-c", Self.storeItem, "default", Self.archive(token: token)], environment: environment)
        try #require(await stored.exitStatus() == 0, "the item could not be stored")

        let monitor = try ChildProcess("/usr/bin/dbus-monitor", ["--address", bus.address], environment: environment, stdout: .pipe)
        defer { monitor.signal(SIGKILL) }
        while let line = await monitor.firstLine(), !line.contains("member=NameLost") {}  // the bus took it for a monitor
        let run = try await webauth.run(binary, ["token"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(run.status == 0 && run.stdout == token + "\n", "\(run.stdout)\n\(run.stderr)")
        // A call after webauth has left: the bus delivers in order, so the monitor has shown
        // everything webauth asked once it shows this.
        let marker = try ChildProcess("/usr/bin/dbus-send", ["--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                            "org.freedesktop.DBus.GetId"], environment: environment)
        try #require(await marker.exitStatus() == 0)
        var calls: [String] = []
        var sessionAlgorithm: String?
        while let line = await monitor.firstLine(), !line.contains("member=GetId") {
            if calls.last == "OpenSession", sessionAlgorithm == nil, line.contains("string \"") { sessionAlgorithm = line }
            guard line.hasPrefix("method call "), line.contains("/org/freedesktop/secrets") else { continue }
            calls.append(line.components(separatedBy: "member=").last ?? line)
        }
        #expect(sessionAlgorithm?.contains("dh-ietf1024-sha256-aes128-cbc-pkcs7") == true,
                "the sign-in crosses the bus encrypted, never in a plain session: \(sessionAlgorithm ?? "no OpenSession")")
        #expect(!calls.contains("ReadAlias"), "the default collection was looked up: \(calls)")
        #expect(calls.filter { $0 == "GetAll" }.count == 1, "more than one service (or a collection) was made: \(calls)")
        #expect(calls.filter { $0 == "OpenSession" }.count == 1 && calls.filter { $0 == "GetSecrets" }.count == 1, "\(calls)")
    }
}
