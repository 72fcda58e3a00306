import Foundation
import Testing
@testable import WebAuthBroker

/// How the broker names a caller from its process: the script an interpreter runs, and the app ID
/// of a Flatpak's `.flatpak-info` (read here from files, as /proc/PID holds them).
@Suite("Broker: caller identity from /proc")
struct CallerIdentityTests {
    @Test("an interpreter's script is its first argument that is no option nor an option's value, made absolute", arguments: [
        ("/usr/bin/python3.11", ["python3", "-u", "-W", "ignore", "tool.py", "--verbose"], "/home/me/tool.py"),
        ("/usr/bin/python3.11", ["python3", "-m", "http.server"], nil),
        ("/usr/bin/python3.11", ["python3", "-c", "print(1)"], nil),
        ("/usr/bin/python3.11", ["python3"], nil),
        ("/usr/bin/gjs-console", ["gjs", "-I", "/usr/share/app", "-m", "/usr/share/app/main.js"], "/usr/share/app/main.js"),
        ("/usr/bin/node", ["node", "--require", "dotenv/config", "bin/app.js"], "/home/me/bin/app.js"),
        ("/usr/bin/perl", ["perl", "-I", "lib", "-w", "../tool.pl"], "/home/tool.pl"),
        ("/usr/bin/perl", ["perl", "-e", "print 1"], nil),
        ("/usr/bin/gdbus", ["gdbus", "call", "script.py"], nil),
    ] as [(String, [String], String?)])
    func interpreterScript(executable: String, commandLine: [String], script: String?) {
        #expect(InterpreterScript.script(executable: executable, commandLine: commandLine, workingDirectory: "/home/me") == script)
    }

    @Test("a .flatpak-info names its app in [Application]; another group's name, an empty one or none is no app")
    func flatpakInfo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flatpak-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func appID(_ text: String) throws -> String? {
            let file = folder.appendingPathComponent(UUID().uuidString)
            try text.write(to: file, atomically: true, encoding: .utf8)
            return FlatpakInfo.appID(in: file.path)
        }
        #expect(try appID("[Application]\nname=org.example.App\nruntime=runtime/x/1\n") == "org.example.App")
        #expect(try appID("[Runtime]\nname=org.example.Platform\n[Application]\n name = org.example.Spaced \n") == "org.example.Spaced")
        #expect(try appID("[Runtime]\nname=org.example.Platform\n") == nil)
        #expect(try appID("[Application]\nname=\n") == nil)
        #expect(FlatpakInfo.appID(in: folder.appendingPathComponent("none").path) == nil)
    }
}
