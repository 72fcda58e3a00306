import Foundation
import OpenIDConnect
import WebAuthSupport

/// Reading a ``LoginValue`` when its step types it: the variable a batch entry gives, the
/// environment, a file, a command, the outbox or the TOTP schedule.
extension LoginValue {
    /// This value, or for a ``variable(_:)`` the source `variables` gives it (a batch entry's
    /// values; nil outside a batch).
    func substituting(_ variables: [String: LoginValue]?) throws(LoginValueError) -> LoginValue {
        guard case .variable(let name) = self else { return self }
        guard let value = variables?[name] else { throw .undefinedVariable(name: name, defined: variables.map { $0.keys.sorted() }) }
        return value
    }

    /// The text, read now.
    func resolve(environment: [String: String], http: any HTTPClient) async throws(LoginValueError) -> String {
        switch self {
        case .literal(let text):
            return text
        case .environment(let name):
            guard let value = environment[name] else { throw .unavailable("the environment variable \(name) is not set") }
            return value
        case .file(let path):
            do { return Self.trimmingNewline(try SecretFile.readLoggingWarning(path)) } catch { throw .unavailable("\(error)") }
        case .command(let command, let names):
            return try await Self.run(command, environment: Self.commandEnvironment(from: environment, passing: names))
        case .outbox(let url):
            return try await Self.newestCode(at: url, http: http)
        case .totp(let source):
            let generator = try source.generator(environment: environment)
            do { return try await OneTimeCodes.shared.next(for: generator) } catch {
                throw .unavailable("cancelled while waiting for the next TOTP code")
            }
        case .variable(let name):
            throw .undefinedVariable(name: name, defined: nil)  // not substituted: there is no batch entry
        }
    }

    private static func trimmingNewline(_ text: String) -> String {
        var text = text
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        return text
    }

    /// What a command sees of `environment`: `PATH`, `HOME`, `LANG` and the variables `names`, nothing else
    /// (no token, password or cookie another variable holds for another step or another program).
    private static func commandEnvironment(from environment: [String: String], passing names: [String]) -> [String: String] {
        var scrubbed = ["PATH": environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"]
        for name in ["HOME", "LANG"] + names { scrubbed[name] = environment[name] }
        return scrubbed
    }

    /// Runs `command` and returns its output. The wait happens on a thread of its own, never on
    /// the cooperative pool: a slow command (a password manager asking for its passphrase) holds
    /// no thread that other tasks need.
    private static func run(_ command: String, environment: [String: String]) async throws(LoginValueError) -> String {
        try await onOwnThread(named: "LoginValue command") { () throws(LoginValueError) in
            try runWaiting(command, environment: environment).get()
        }
    }

    /// Runs `command` and waits for its output and its exit, blocking the calling thread.
    private static func runWaiting(_ command: String, environment: [String: String]) -> Result<String, LoginValueError> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return .failure(.unavailable("cannot run `\(command)`: \(error.localizedDescription)")) }
        let data = output.fileHandleForReading.readToEndRetryingInterruptions() ?? Data()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return .failure(.unavailable("`\(command)` exited with status \(process.terminationStatus)")) }
        return .success(trimmingNewline(String(decoding: data, as: UTF8.self)))
    }

    private static func newestCode(at url: URL, http: any HTTPClient) async throws(LoginValueError) -> String {
        let response: HTTPResponse
        do { response = try await http.send(HTTPRequest(method: "GET", url: url)) } catch {
            throw .unavailable("cannot read the outbox: \(error)")
        }
        guard response.status == 200, case .array(let messages)? = try? JSONValue(parsing: String(decoding: response.body, as: UTF8.self)) else {
            throw .unavailable("the outbox at \(url.host ?? "") answered HTTP \(response.status), not a list of messages")
        }
        guard let code = messages.last?["code"]?.stringValue else { throw .unavailable("the outbox has no message for that address") }
        return code
    }
}
