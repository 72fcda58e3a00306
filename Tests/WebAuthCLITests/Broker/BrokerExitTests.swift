import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// A D-Bus-activated broker leaves when its bus goes away (GDBus's exit-on-close left it running,
/// SIGTERM pending on a thread that blocks it, until its idle timer) and on SIGTERM, cancelling
/// what is in flight; either way its Xvfb, its web processes and its folders go with it.
/// The broker runs with a short `TMPDIR` of its own (``RunFolder``), which names what it leaves.
@Suite("Broker: leaving when its bus goes or SIGTERM comes", .startsWebKit(minutes: 3))
struct BrokerExitTests {
    let webauth = WebAuthBinary()

    @Test("the bus daemon killed: the broker leaves at once, and its Xvfb, web processes and folders with it")
    func busGone() async throws {
        let folder = try RunFolder()
        defer { folder.remove() }
        let fixture = try await BrokerFixture.start(webauth, environment: folder.environment)
        let signedIn = try await fixture.signIn("work")  // the broker's engine runs: its Xvfb, network and web processes
        try #require(signedIn["response"]?.numberValue == 0, "\(signedIn)")
        let exit = try ProcessExit.Watch(try await fixture.bus.brokerProcess())
        await fixture.bus.stop()
        await exit.exited()
        #expect(fixture.bus.brokerLog.contains("the session bus went away: leaving"), "\(fixture.bus.brokerLog)")
        #expect(folder.processesLeft.isEmpty, "left running: \(folder.processesLeft)")
        #expect(folder.contents.isEmpty, "left in its TMPDIR: \(folder.contents)")
    }

    @Test("SIGTERM while a sign-in's page is open: the request is cancelled, the caller gets no token, the broker leaves with its one line, nothing left")
    func terminatedMidRequest() async throws {
        let folder = try RunFolder()
        defer { folder.remove() }
        let fixture = try await BrokerFixture.start(webauth, environment: folder.environment)
        defer { Task { await fixture.bus.stop() } }
        var options = fixture.signInOptions(account: "work")
        options["script_file"] = .string(try webauth.file("wait.yaml", "step_timeout: 600\nsteps:\n  - wait_for: \"#never\"\n"))
        let outcome = webauth.home.appendingPathComponent("outcome-\(UUID().uuidString).json")
        let client = try ChildProcess("/usr/bin/python3", [try fixture.bus.pythonScript(BrokerClient.request), "SignIn", "", JSONValue.object(options).description],
                                      environment: webauth.baseEnvironment.merging(fixture.bus.clientEnvironment) { $1 }, stdout: .file(outcome.path), stderr: .pipe)
        _ = await client.firstLine()  // "requested": the broker runs the request
        await fixture.provider.firstRequest(to: "/authorize")  // and its page is open
        let broker = try await fixture.bus.brokerProcess()
        let exit = try ProcessExit.Watch(broker)
        kill(broker, SIGTERM)
        await exit.exited()
        #expect(await client.exitStatus() == 0)
        let answer = try JSONValue(parsing: try String(contentsOf: outcome, encoding: .utf8))
        #expect(answer["response"]?.numberValue == 2 && answer["results"]?["access_token"] == nil, "no token: \(answer)")
        let log = fixture.bus.brokerLog
        #expect(log.contains("is cancelled") && log.contains("stopped: leaving"), "\(log)")
        #expect(log.hasSuffix("Interrupted: the broker stopped; its requests in flight were cancelled.\n"), "\(log)")
        await fixture.bus.stop()  // the bus daemon carries the folder too
        #expect(folder.processesLeft.isEmpty, "left running: \(folder.processesLeft)")
        #expect(folder.contents.isEmpty, "left in its TMPDIR: \(folder.contents)")
    }
}
