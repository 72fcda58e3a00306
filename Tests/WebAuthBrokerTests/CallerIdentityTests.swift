import Foundation
import Testing
@testable import WebAuthBroker

/// How the broker names a caller from its process: the script an interpreter runs, the app ID of
/// a Flatpak's `.flatpak-info`, a snap's AppArmor label, and the refusal of a caller in a view of
/// its own that shows none (read here from files laid out as /proc/PID holds them: this machine
/// has no AppArmor, and the real /proc of a sandbox is in BrokerConsentTests).
@Suite("Broker: caller identity from /proc")
struct CallerIdentityTests {
    @Test("an interpreter's script is its first argument that is no option nor an option's value, made absolute", arguments: [
        ("/usr/bin/python3.11", ["python3", "-u", "-W", "ignore", "tool.py", "--verbose"], "/home/me/tool.py"),
        ("/usr/bin/python3.11", ["python3", "-uWignore", "-Xdev", "tool.py"], "/home/me/tool.py"),
        ("/usr/bin/python3.11", ["python3", "--check-hash-based-pycs", "always", "tool.py"], "/home/me/tool.py"),
        ("/usr/bin/python3.11", ["python3", "--check-hash-based-pycs=always", "tool.py"], "/home/me/tool.py"),
        ("/usr/bin/python3.11", ["python3", "--", "tool.py"], "/home/me/tool.py"),
        ("/usr/bin/gjs-console", ["gjs", "-I", "/usr/share/app", "-m", "/usr/share/app/main.js"], "/usr/share/app/main.js"),
        ("/usr/bin/gjs-console", ["gjs", "--include-path=/usr/share/app", "main.js"], "/home/me/main.js"),
        ("/usr/bin/node", ["node", "--require", "dotenv/config", "bin/app.js"], "/home/me/bin/app.js"),
        ("/usr/bin/node", ["node", "--require=dotenv/config", "-r", "x", "--enable-source-maps", "bin/app.js"], "/home/me/bin/app.js"),
        ("/usr/bin/node", ["node", "--title", "granted.js", "app.js"], "/home/me/app.js"),
        ("/usr/bin/perl", ["perl", "-I", "lib", "-w", "../tool.pl"], "/home/tool.pl"),
        ("/usr/bin/perl", ["perl", "-Ilib", "-Mstrict", "-0777", "-i.bak", "tool.pl", "data"], "/home/me/tool.pl"),
        ("/usr/bin/perl", ["perl", "-x", "tool.pl"], "/home/me/tool.pl"),
        ("/usr/bin/ruby3.1", ["ruby", "-w", "-Ilib", "-r", "json", "tool.rb"], "/home/me/tool.rb"),
        ("/usr/bin/bash", ["bash", "-e", "-o", "pipefail", "+o", "posix", "--norc", "tool.sh"], "/home/me/tool.sh"),
        ("/usr/bin/bash", ["bash", "-", "tool.sh"], "/home/me/tool.sh"),
        ("/usr/bin/dash", ["sh", "tool.sh"], "/home/me/tool.sh"),
    ] as [(String, [String], String?)])
    func interpreterScript(executable: String, commandLine: [String], script: String?) {
        #expect(InterpreterScript.script(executable: executable, commandLine: commandLine, workingDirectory: "/home/me") == script)
    }

    @Test("code on the command line, a module, standard input or a script looked up elsewhere is no script, in every form", arguments: [
        ("/usr/bin/python3.11", ["python3"]),
        ("/usr/bin/python3.11", ["python3", "-c", "print(1)", "granted.py"]),
        ("/usr/bin/python3.11", ["python3", "-cprint(1)", "granted.py"]),
        ("/usr/bin/python3.11", ["python3", "-Ic", "print(1)", "granted.py"]),
        ("/usr/bin/python3.11", ["python3", "-uIcprint(1)", "granted.py"]),
        ("/usr/bin/python3.11", ["python3", "-m", "http.server", "granted.py"]),
        ("/usr/bin/python3.11", ["python3", "-mhttp.server", "granted.py"]),
        ("/usr/bin/python3.11", ["python3", "-", "granted.py"]),
        ("/usr/bin/python3.11", ["python3", "--", "-", "granted.py"]),
        ("/usr/bin/python3.11", ["python3", "-c\nimport os", "granted.py"]),
        ("/usr/bin/perl", ["perl", "-e", "print 1", "granted.pl"]),
        ("/usr/bin/perl", ["perl", "-eprint(1)", "granted.pl"]),
        ("/usr/bin/perl", ["perl", "-E", "say 1", "granted.pl"]),
        ("/usr/bin/perl", ["perl", "-lne", "print", "granted.pl"]),
        ("/usr/bin/perl", ["perl", "-0e", "print", "granted.pl"]),
        ("/usr/bin/perl", ["perl", "-Ilib -e", "print", "granted.pl"]),
        ("/usr/bin/perl", ["perl", "-S", "granted.pl"]),
        ("/usr/bin/perl", ["perl", "-", "granted.pl"]),
        ("/usr/bin/node", ["node", "--eval=1", "granted.js"]),
        ("/usr/bin/node", ["node", "--eval", "1", "granted.js"]),
        ("/usr/bin/node", ["node", "--print=1", "granted.js"]),
        ("/usr/bin/node", ["node", "-p", "1", "granted.js"]),
        ("/usr/bin/node", ["node", "-pe", "1", "granted.js"]),
        ("/usr/bin/node", ["node", "-e1", "granted.js"]),
        ("/usr/bin/node", ["node", "-", "granted.js"]),
        ("/usr/bin/gjs-console", ["gjs", "--command=print(1)", "granted.js"]),
        ("/usr/bin/gjs-console", ["gjs", "--command", "print(1)", "granted.js"]),
        ("/usr/bin/gjs-console", ["gjs", "-cprint(1)", "granted.js"]),
        ("/usr/bin/bash", ["bash", "-c", "echo", "granted.sh"]),
        ("/usr/bin/bash", ["bash", "-ec", "echo", "granted.sh"]),
        ("/usr/bin/bash", ["bash", "-s", "granted.sh"]),
        ("/usr/bin/dash", ["sh", "-c", "echo", "granted.sh"]),
        ("/usr/bin/ruby3.1", ["ruby", "-e", "puts 1", "granted.rb"]),
        ("/usr/bin/ruby3.1", ["ruby", "-ne", "print", "granted.rb"]),
        ("/usr/bin/ruby3.1", ["ruby", "-C", "/elsewhere", "granted.rb"]),
        ("/usr/bin/ruby3.1", ["ruby", "-S", "granted.rb"]),
        ("/usr/bin/gdbus", ["gdbus", "call", "script.py"]),
        ("/usr/bin/shred", ["shred", "script.sh"]),
    ] as [(String, [String])])
    func noScript(executable: String, commandLine: [String]) {
        #expect(InterpreterScript.script(executable: executable, commandLine: commandLine, workingDirectory: "/home/me") == nil)
    }

    @Test("a .flatpak-info names its app in [Application]; one that is there but names no valid app ID, is too large or no regular file is refused")
    func flatpakInfo() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func appID(_ text: String) throws(CallerIdentityError) -> String? {
            let file = folder.appendingPathComponent(UUID().uuidString)
            try? text.write(to: file, atomically: true, encoding: .utf8)
            return try FlatpakInfo.appID(in: file.path)
        }
        #expect(try appID("[Application]\nname=org.example.App\nruntime=runtime/x/1\n") == "org.example.App")
        #expect(try appID("[Runtime]\nname=org.example.Platform\n[Application]\n name = org.example.Spaced-App \n") == "org.example.Spaced-App")
        #expect(try FlatpakInfo.appID(in: folder.appendingPathComponent("none").path) == nil, "no file: no Flatpak")
        #expect(throws: CallerIdentityError.untrusted("its .flatpak-info names no app ([Application] name=)")) {
            try appID("[Runtime]\nname=org.example.Platform\n")
        }
        #expect(throws: CallerIdentityError.untrusted("its .flatpak-info names no app ([Application] name=)")) { try appID("") }
        for name in ["", "/usr/bin/gdbus", "webauth", "snap.firefox", "org.example", "org.3example.App", "org.ex-ample.App", "org..App"] {
            #expect(throws: CallerIdentityError.untrusted("its .flatpak-info names no valid app ID"), "\(name)") {
                try appID("[Application]\nname=\(name)\n")
            }
        }
        #expect(throws: CallerIdentityError.untrusted("its .flatpak-info is larger than 64 KiB")) {
            try appID("[Application]\nname=org.example.App\n" + String(repeating: "#", count: 65_536))
        }
        let fifo = folder.appendingPathComponent("fifo").path
        try #require(mkfifo(fifo, 0o600) == 0)
        #expect(throws: CallerIdentityError.untrusted("its .flatpak-info is not a regular file"), "a FIFO is refused, not waited on") {
            try FlatpakInfo.appID(in: fifo)
        }
        #expect(throws: CallerIdentityError.untrusted("its .flatpak-info is not a regular file")) { try FlatpakInfo.appID(in: folder.path) }
        let link = folder.appendingPathComponent("link")
        let target = folder.appendingPathComponent("target")
        try "[Application]\nname=org.example.App\n".write(to: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        #expect(throws: CallerIdentityError.untrusted("its .flatpak-info cannot be read (Too many levels of symbolic links)"),
                "a link (which the broker would follow in its own root) is not followed") { try FlatpakInfo.appID(in: link.path) }
    }

    @Test("a snap is its name when its AppArmor label is a snap app's or hook's in enforce mode", arguments: [
        ("snap.firefox.firefox (enforce)", "firefox"),
        ("snap.firefox_beta.geckodriver (enforce)", "firefox_beta"),
        ("snap.lxd.hook.configure (enforce)", "lxd"),
        ("snap.firefox.firefox (complain)", nil),
        ("snap.firefox.firefox", nil),
        ("unconfined", nil),
        ("snap-update-ns.firefox (enforce)", nil),
        ("snap.Firefox.firefox (enforce)", nil),
        ("snap.fire.fox.x.y (enforce)", nil),
        ("/usr/bin/man (enforce)", nil),
    ] as [(String, String?)])
    func snapLabel(label: String, name: String?) {
        #expect(SnapConfinement.name(inLabel: label) == name)
    }

    @Test("a caller in the broker's view is its executable (and script); in a view of its own, its sandbox's identity, or refused")
    func views() throws {
        let proc = try ProcTree()
        defer { proc.remove() }
        try proc.process(42, sharesView: true, exe: "/usr/bin/python3.11", commandLine: ["python3", "-u", "tool.py"])
        #expect(try CallerApplication.of(processID: 42, procRoot: proc.path).kind == .executable(path: "/usr/bin/python3.11", script: "/home/me/tool.py"))
        try proc.process(43, sharesView: true, exe: proc.brokerExecutable)
        #expect(try CallerApplication.of(processID: 43, procRoot: proc.path).kind == .webauth)
        try proc.process(44, sharesView: true, exe: "/usr/bin/gdbus")
        try proc.file(44, "root/.flatpak-info", "[Runtime]\n")
        #expect(try CallerApplication.of(processID: 44, procRoot: proc.path).kind == .executable(path: "/usr/bin/gdbus", script: nil),
                "a .flatpak-info in the broker's own root is not a sandbox's")
        try FileManager.default.removeItem(atPath: proc.path + "/broker-root/.flatpak-info")

        try proc.process(50, sharesView: false, exe: "/usr/bin/gdbus")
        try proc.file(50, "root/.flatpak-info", "[Application]\nname=org.example.App\n")
        #expect(try CallerApplication.of(processID: 50, procRoot: proc.path).kind == .flatpak(appID: "org.example.App"))
        try proc.process(51, sharesView: false, exe: "/usr/bin/gdbus")
        try proc.file(51, "attr/apparmor/current", "snap.firefox.firefox (enforce)\n")
        #expect(try CallerApplication.of(processID: 51, procRoot: proc.path).kind == .snap(name: "firefox"))
        #expect(try CallerApplication.of(processID: 51, procRoot: proc.path).id == "snap.firefox")
        try proc.process(52, sharesView: false, exe: "/usr/bin/gdbus")
        try proc.file(52, "attr/current", "snap.lxd.lxc (enforce)\n")
        #expect(try CallerApplication.of(processID: 52, procRoot: proc.path).kind == .snap(name: "lxd"), "attr/current, without LSM stacking")

        let refusal = CallerIdentityError.untrusted("it runs in a root or mount namespace other than the broker's and is neither a Flatpak app "
                                                    + "(no .flatpak-info) nor a confined snap, so the paths it shows could name any file")
        try proc.process(60, sharesView: false, exe: "/usr/bin/python3.11", commandLine: ["python3", "granted.py"])
        #expect(throws: refusal, "another view, no sandbox identity") { try CallerApplication.of(processID: 60, procRoot: proc.path) }
        try proc.process(61, sharesView: false, exe: "/usr/bin/gdbus")
        try proc.file(61, "attr/apparmor/current", "snap.firefox.firefox (complain)\n")
        #expect(throws: refusal, "a snap profile in complain mode confines nothing") { try CallerApplication.of(processID: 61, procRoot: proc.path) }
        try proc.process(62, sharesView: false, exe: proc.brokerExecutable)
        #expect(throws: refusal, "not even the broker's own path") { try CallerApplication.of(processID: 62, procRoot: proc.path) }
        try proc.process(63, sharesView: false, exe: "/usr/bin/gdbus")
        try proc.file(63, "root/.flatpak-info", "[Runtime]\nname=org.example.Platform\n")
        try proc.file(63, "attr/apparmor/current", "snap.firefox.firefox (enforce)\n")
        #expect(throws: CallerIdentityError.untrusted("its .flatpak-info names no app ([Application] name=)")) {
            try CallerApplication.of(processID: 63, procRoot: proc.path)
        }
        try proc.process(64, sharesView: true, exe: "/usr/bin/gdbus", mountNamespace: "own")
        #expect(throws: refusal, "the same root in a mount namespace of its own (a systemd unit's PrivateTmp, Protect*)") {
            try CallerApplication.of(processID: 64, procRoot: proc.path)
        }
        #expect(throws: CallerIdentityError.unreadable("\(proc.path)/70/root: No such file or directory")) {
            try CallerApplication.of(processID: 70, procRoot: proc.path)
        }
    }

    private static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("caller-identity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A made-up /proc: `self` is the broker (its root folder `broker-root`, its mount namespace
    /// the file `mnt-broker`); each process's `root` and `ns/mnt` lead to the broker's or to its own.
    struct ProcTree {
        let path: String
        let brokerExecutable = "/usr/local/bin/webauth"

        init() throws {
            path = try CallerIdentityTests.folder().path
            for folder in ["broker-root", "self/ns"] { try FileManager.default.createDirectory(atPath: "\(path)/\(folder)", withIntermediateDirectories: true) }
            try Data().write(to: URL(fileURLWithPath: "\(path)/mnt-broker"))
            try link("self/root", to: "\(path)/broker-root")
            try link("self/ns/mnt", to: "\(path)/mnt-broker")
            try link("self/exe", to: brokerExecutable)
        }

        /// Process `pid`, running `exe` with `commandLine` in /home/me, in the broker's root (or
        /// one of its own) and in the broker's mount namespace, or one named `mountNamespace`.
        func process(_ pid: Int, sharesView: Bool, exe: String, commandLine: [String] = [], mountNamespace: String? = nil) throws {
            let process = "\(path)/\(pid)"
            try FileManager.default.createDirectory(atPath: process + "/ns", withIntermediateDirectories: true)
            let root = sharesView ? "\(path)/broker-root" : process + "-root"
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            try link("\(pid)/root", to: root)
            let namespace = mountNamespace ?? (sharesView ? "broker" : "\(pid)")
            try? Data().write(to: URL(fileURLWithPath: "\(path)/mnt-\(namespace)"), options: .withoutOverwriting)
            try link("\(pid)/ns/mnt", to: "\(path)/mnt-\(namespace)")
            try link("\(pid)/exe", to: exe)
            try link("\(pid)/cwd", to: "/home/me")
            try Data(commandLine.map { $0 + "\0" }.joined().utf8).write(to: URL(fileURLWithPath: process + "/cmdline"))
        }

        /// Writes `text` at `relative` in process `pid`'s folder (its `root/…` is the root it sees).
        func file(_ pid: Int, _ relative: String, _ text: String) throws {
            let url = URL(fileURLWithPath: "\(path)/\(pid)/\(relative)").resolvingSymlinksInPath()
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: false, encoding: .utf8)
        }

        func remove() { try? FileManager.default.removeItem(atPath: path) }

        private func link(_ relative: String, to destination: String) throws {
            try FileManager.default.createSymbolicLink(atPath: "\(path)/\(relative)", withDestinationPath: destination)
        }
    }
}
