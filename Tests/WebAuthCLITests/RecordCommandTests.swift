import DevProvider
import Foundation
import TestSupport
import Testing

/// `webauth record` as a person uses it: on an Xvfb of the test's own (`xvfb-run`),
/// xdotool types into the window as a keyboard would; the written script is then replayed by
/// `webauth login --headless --script`. `--check` replays a script in the window, a step per line of input.
@Suite("webauth record", .startsWebKit(minutes: 3))
struct RecordCommandTests {
    let webauth = WebAuthBinary()

    /// The person at the keyboard: waits until `record` says the development provider's login
    /// page is there (its line on stderr), then types the user name (into the autofocus field),
    /// Tab, the password and Enter into the window. The rest of `record`'s stderr passes through.
    static let person = """
        fifo="$(mktemp -d)/stderr"
        mkfifo "$fifo"
        "$WEBAUTH" record --issuer "$ISSUER" --client-id webauth-demo "$@" 2>"$fifo" &
        record=$!
        exec 3<"$fifo"
        while IFS= read -r line <&3; do
          printf '%s\\n' "$line" >&2
          case "$line" in *"(Sign in to the development provider)"*) break ;; esac
        done
        cat <&3 >&2 &
        window=$(xdotool search --sync --onlyvisible --name '^Sign in to the development provider$' | head -n 1)
        xdotool windowfocus --sync "$window" type --delay 20 alice
        xdotool windowfocus --sync "$window" key Tab type --delay 20 wonderland
        xdotool windowfocus --sync "$window" key Return
        wait $record
        """

    @Test("record: the person signs in once in the window, the script is written 0600 without the password, and login --headless replays it")
    func recordThenReplay() async throws {
        let provider = try await OpenIDProvider.start()
        let person = try webauth.file("person.sh", Self.person)
        let output = webauth.home.appendingPathComponent("login.yaml").path
        let record = try await webauth.run(URL(fileURLWithPath: "/usr/bin/xvfb-run"), ["-a", "sh", person, "-o", output, "--keep-values"],
                                           environment: ["WEBAUTH": WebAuthBinary.binary.path, "ISSUER": provider.issuer])
        #expect(record.status == 0, "stderr: \(record.stderr)")
        #expect(record.stderr.contains("recorded: a password typed into '#password'") && record.stderr.contains("export PASSWORD=..."),
                "stderr: \(record.stderr)")
        #expect(!record.stderr.contains("wonderland") && !record.stdout.contains("wonderland"), "no typed password in the log")
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(!text.contains("wonderland"), "\(text)")
        #expect(text.contains("- fill: \"#username\"\n    value: \"alice\"") && text.contains("env: PASSWORD")
                && text.contains("- press_enter: \"#password\""), "\(text)")
        let mode = try FileManager.default.attributesOfItem(atPath: output)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: webauth.home.path).filter { $0.hasSuffix(".partial") }
        #expect(leftovers.isEmpty, "written atomically")
        let replay = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless", "--store", "none",
                                        "--script", output], environment: ["PASSWORD": "wonderland"])
        #expect(replay.status == 0, "stderr: \(replay.stderr)")
        #expect(replay.stdout.contains(OpenIDProvider.User.alice.subject))
    }

    @Test("record --check replays a script in the window one step per line of input; input that ends first stops it (exit 7)")
    func check() async throws {
        let provider = try await OpenIDProvider.start()
        let script = try webauth.file("login.yaml", """
            steps:
              - fill: "#username"
                value: alice
              - fill: "#password"
                env: PASSWORD
              - press_enter: "#password"
            """)
        let run = { (lines: Int) in
            try await webauth.run(URL(fileURLWithPath: "/usr/bin/xvfb-run"), ["-a", "sh", "-c",
                "printf '\(String(repeating: "\\n", count: lines))' | \"$WEBAUTH\" record --issuer \"$ISSUER\" --client-id webauth-demo --check \"$SCRIPT\""],
                environment: ["WEBAUTH": WebAuthBinary.binary.path, "ISSUER": provider.issuer, "SCRIPT": script, "PASSWORD": "wonderland"])
        }
        let stepped = try await run(3)
        #expect(stepped.status == 0, "stderr: \(stepped.stderr)")
        #expect(stepped.stderr.contains("step 1 of 3: fill '#username' from a literal value. Press Enter to run it.")
                && stepped.stderr.contains("step 3 of 3: press Enter in '#password'"), "stderr: \(stepped.stderr)")
        let cut = try await run(2)
        #expect(cut.status == 7 && cut.stderr.contains("the check ended before step 3: no more input"), "stderr: \(cut.stderr)")
    }

    @Test("record needs the window and one of --output or --check (exit 64, nothing written)")
    func usage() async throws {
        let headless = try await webauth(["record", "--issuer", "http://127.0.0.1:9/", "--client-id", "app", "--headless", "-o", "x.yaml"])
        #expect(headless.status == 64 && headless.stderr.contains("record needs the window"), "stderr: \(headless.stderr)")
        let neither = try await webauth(["record", "--issuer", "http://127.0.0.1:9/", "--client-id", "app"])
        #expect(neither.status == 64 && neither.stderr.contains("--output FILE (to record) or --check FILE"), "stderr: \(neither.stderr)")
        #expect(!FileManager.default.fileExists(atPath: webauth.home.appendingPathComponent("x.yaml").path))
    }
}
