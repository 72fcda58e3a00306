import Foundation
import PrivateDisplay
import TestSupport
import Testing

/// The private Xvfb `webauth` hands to the engine (``XvfbHandOver``): taken only when the variable
/// names a child of this process, a pipe and an authority folder made as the engine makes them;
/// claimed only for the screen it was started for.
@Suite("A handed-over Xvfb")
struct XvfbHandOverTests {
    @Test("a variable naming a child, a pipe and an authority folder made here is taken; any other is refused")
    func takenOnlyWhenOurs() throws {
        let authority = try XAuthorityFile()
        defer { authority.remove() }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")
        child.arguments = ["60"]
        try child.run()
        defer {
            kill(child.processIdentifier, SIGKILL)  // the pool's threads block SIGTERM, and the child inherits that
            child.waitUntilExit()
        }
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        let pid = child.processIdentifier
        func taken(_ value: String) -> Bool { XvfbHandOver.launch(named: value) != nil }

        #expect(taken("\(pid) \(ends[0]) 1280 1024 0 \(authority.directory)"))
        #expect(XvfbHandOver.launch(named: "\(pid) \(ends[0]) 640 480 1 \(authority.directory)")?.screen
                == XvfbScreen(width: 640, height: 480, offersGL: true))
        #expect(!taken("1 \(ends[0]) 1280 1024 0 \(authority.directory)"), "init is no child of this process")
        #expect(!taken("\(pid) 0 1280 1024 0 \(authority.directory)"), "stdin is not the report pipe")
        let file = open("/dev/null", O_RDONLY)
        defer { close(file) }
        #expect(!taken("\(pid) \(file) 1280 1024 0 \(authority.directory)"), "not a pipe")
        #expect(!taken("\(pid) \(ends[0]) 1280 1024 0 /tmp"), "not a folder the engine made")
        #expect(!taken("\(pid) \(ends[0]) 1280 1024 2 \(authority.directory)"))
        #expect(!taken("\(pid) \(ends[0]) wide 1024 0 \(authority.directory)"))
        #expect(!taken("\(pid) \(ends[0]) 1280 1024"))
        chmod(authority.directory, 0o755)
        #expect(!taken("\(pid) \(ends[0]) 1280 1024 0 \(authority.directory)"), "a folder others may read")
    }

    @Test("the engine's display is the server handed over for its screen; one for another screen is stopped (in a child process)")
    func claimedForItsScreen() async {
        await #expect(processExitsWith: .success) {
            // Synchronous throughout: the server is tied to the thread that starts it.
            func handOver(_ screen: XvfbScreen) -> XvfbLaunch? {
                guard let started = XvfbHandOver.start(screen) else { return nil }
                XvfbHandOver.receive(started.value)
                return started.launch
            }
            func isRunning(_ pid: pid_t) -> Bool { ProcessTable().entries[pid].map { $0.state != "Z" } ?? false }
            guard let first = handOver(.headlessDefault) else { exit(2) }
            guard let display = try? VirtualDisplay(.headlessDefault), display.authority.directory == first.authority.directory,
                  isRunning(first.pid) else { exit(3) }
            display.stop()
            guard let second = handOver(XvfbScreen(width: 640, height: 480, offersGL: false)) else { exit(4) }
            guard let own = try? VirtualDisplay(.headlessDefault), own.authority.directory != second.authority.directory else { exit(5) }
            guard !isRunning(second.pid), !FileManager.default.fileExists(atPath: second.authority.directory) else { exit(6) }
            own.stop()
            exit(0)
        }
    }
}
