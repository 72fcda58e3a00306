import DevProvider
import Foundation
import TestSupport
import Testing

/// What `webauth` leaves under `$HOME`: the saved sign-in and a profile's cookies,
/// nothing else, even with no `XDG_RUNTIME_DIR` (GLib's runtime files then went to `~/.cache`).
@Suite("What webauth writes under HOME (the built binary)", .startsWebKit(minutes: 3))
struct HomeFolderTests {
    var webauth = WebAuthBinary()

    init() {
        webauth.environment["ALICE_PASSWORD"] = OpenIDProvider.User.alice.password
    }

    /// Every file and folder under `folder`, relative to it.
    static func tree(_ folder: URL) -> Set<String> {
        Set((FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String]) ?? [])
    }

    @Test("with no XDG_RUNTIME_DIR, sign-ins write under HOME only the saved sign-in and the profile's cookies, and leave nothing in TMPDIR")
    func onlyTheDocumentedFiles() async throws {
        let provider = try await OpenIDProvider.start()
        let home = webauth.home.appendingPathComponent("home-\(UUID().uuidString)")
        let temporary = webauth.home.appendingPathComponent("tmp-\(UUID().uuidString)")
        for folder in [home, temporary] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        // The XDG folders where they are by default, under HOME, so everything lands where the test looks.
        // No session bus at all (an SSH login, a container): the tests' own missing socket would keep the runtime folder away.
        let environment = ["HOME": home.path, "XDG_RUNTIME_DIR": "", "TMPDIR": temporary.path, "DBUS_SESSION_BUS_ADDRESS": "",
                           "XDG_STATE_HOME": home.path + "/.local/state", "XDG_DATA_HOME": home.path + "/.local/share",
                           "XDG_CONFIG_HOME": home.path + "/.config", "XDG_CACHE_HOME": home.path + "/.cache"]
        let script = try webauth.file("login-\(UUID().uuidString).yaml", LoginCommandTests.passwordScript)
        for profile in [[], ["--profile", "work"]] {
            let login = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless", "--store", "file",
                                           "--script", script] + profile, environment: environment)
            #expect(login.status == 0, "stderr: \(login.stderr)")
        }
        let written = Self.tree(home).filter { !$0.hasPrefix(".local/share/webauthsession/profiles/work/") }
        // No NAME.lock: a profile's lock file is there only while a command holds it.
        #expect(written == [".local", ".local/state", ".local/state/webauthsession", ".local/state/webauthsession/default.json",
                            ".local/state/webauthsession/work.json", ".local/share", ".local/share/webauthsession",
                            ".local/share/webauthsession/profiles", ".local/share/webauthsession/profiles/work"], "\(written.sorted())")
        #expect(Self.tree(temporary).isEmpty, "left in TMPDIR: \(Self.tree(temporary))")
    }

    @Test("logout --local --profile removes the cookies a failed sign-in left, with no saved sign-in; with neither, exit 6")
    func leftoverCookies() async throws {
        let provider = try await OpenIDProvider.start()
        let wrong = try webauth.file("wrong-\(UUID().uuidString).yaml", """
            steps:
              - fill: "#username"
                value: alice
              - fill: "#password"
                value: not-the-password
              - press_enter: "#password"
            settle_time: 1
            """)
        let failed = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless", "--profile", "lab",
                                        "--script", wrong])
        #expect(failed.status != 0, "stderr: \(failed.stderr)")
        let cookies = webauth.home.appendingPathComponent("data/webauthsession/profiles/lab")
        #expect(FileManager.default.fileExists(atPath: cookies.path), "the failed sign-in kept the provider's cookies: \(Self.tree(webauth.home).sorted())")
        let logout = try await webauth(["logout", "--local", "--profile", "lab"])
        #expect(logout.status == 0, "stderr: \(logout.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cookies.path))
        let again = try await webauth(["logout", "--local", "--profile", "lab"])
        #expect(again.status == 6, "nothing left to remove: \(again.stderr)")
    }
}
