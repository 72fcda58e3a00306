import Foundation
import OpenIDConnect
import OpenIDConnectURLSession
import TestSupport
import Testing

/// `webauth provider`: the development provider as its own process, used over plain HTTP.
@Suite("webauth provider (the built binary)", .startsWebKit(minutes: 3))
struct ProviderCommandTests {
    let webauth = WebAuthBinary()

    @Test("prints its issuer, answers discovery with the configured faults, and stops on SIGINT with status 0")
    func runsAndStops() async throws {
        let config = try webauth.file("provider.json", #"{"clients": [{"client_id": "cli", "redirect_uris": ["http://127.0.0.1:8/cb"]}]}"#)
        let process = try ChildProcess(WebAuthBinary.binary.path, ["provider", "--config", config, "--fault", "wrong-issuer"],
                                       environment: webauth.baseEnvironment, stdout: .pipe)
        defer { process.signal(SIGKILL) }
        let line = try #require(await process.firstLine())
        #expect(line.hasPrefix("http://127.0.0.1:"))
        let configuration = try await ProviderConfiguration.discover(issuer: line, using: URLSessionHTTPClient())
        #expect(configuration.issuer == line)
        let page = try await URLSessionHTTPClient().send(HTTPRequest(url: URL(string: line
            + "/authorize?response_type=code&client_id=cli&redirect_uri=http://127.0.0.1:8/cb&code_challenge=x&code_challenge_method=S256&state=s")!))
        #expect(page.status == 200, "the configured client is known")
        let login = try await URLSessionHTTPClient().send(HTTPRequest(
            method: "POST", url: URL(string: line + "/authorize?response_type=code&client_id=cli&redirect_uri=http://127.0.0.1:8/cb&code_challenge=x&code_challenge_method=S256&state=s")!,
            headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data("username=alice&password=wonderland".utf8)))
        #expect(login.headers["location"]?.contains("iss=https%3A%2F%2Fattacker.example") == true, "the fault switch is on")

        process.signal(SIGINT)
        #expect(await process.exitStatus() == 0)
    }

    /// Before: on a taken port it printed nothing, never listened, and ignored SIGINT and SIGTERM.
    @Test("a port another program listens on: exit 64 at once with 'port N is in use', not a silent process that ignores Ctrl-C")
    func portInUse() async throws {
        let first = try ChildProcess(WebAuthBinary.binary.path, ["provider"], environment: webauth.baseEnvironment, stdout: .pipe)
        defer { first.signal(SIGKILL) }
        let issuer = try #require(await first.firstLine())
        let port = try #require(URL(string: issuer)?.port)
        let second = try await webauth(["provider", "--port", String(port)])
        #expect(second.status == 64 && second.stdout.isEmpty, "stderr: \(second.stderr)")
        #expect(second.stderr == "Error: port \(port) is in use. Choose another --port, or 0 for a free one.\n", "stderr: \(second.stderr)")
        first.signal(SIGTERM)
        #expect(await first.exitStatus() == 0, "SIGTERM stops it as SIGINT does")
    }

    @Test("a bad configuration or key file is a usage error")
    func badFiles() async throws {
        let config = try await webauth(["provider", "--config", try webauth.file("p.json", #"{"clients": []}"#)])
        #expect(config.status == 64 && config.stderr.contains("no clients"))
        let key = try await webauth(["provider", "--key", try webauth.file("key.pem", "not a key")])
        #expect(key.status == 64 && key.stderr.contains("is not a PEM P-256"))
        let fault = try await webauth(["provider", "--fault", "gremlins"])
        #expect(fault.status == 64 && fault.stderr.contains("gremlins"))
    }
}
