import Foundation
import OpenIDConnect

/// Where a login-script step gets the text it types. Secrets belong in the environment, a file
/// or a command, never in the script: a literal typed into a password field is refused.
/// Descriptions name the source, never the value.
public enum LoginValue: Sendable, Hashable, CustomStringConvertible {
    /// Text written in the script (a user name, an email address).
    case literal(String)
    /// An environment variable of this process.
    case environment(String)
    /// A file's contents, without the final newline. It is a `SecretFile`: one that others can
    /// write is refused, one that they can read is logged as a warning.
    case file(String)
    /// What a shell command (`/bin/sh -c`) prints, without the final newline; it must exit 0.
    /// It runs with a scrubbed environment: `PATH` (or `/usr/local/bin:/usr/bin:/bin` if unset),
    /// `HOME`, `LANG`, and only the other variables named in `passing`.
    case command(String, passing: [String] = [])
    /// The newest one-time code in the development provider's outbox: a `GET` of this URL
    /// (`http://127.0.0.1:PORT/outbox?email=ADDRESS`) answering a JSON array of messages with a `code`.
    case outbox(URL)
    /// The current TOTP code (RFC 6238) of a secret in the environment or a file. A code with
    /// less than 5 s left is not typed (the step waits for the next one), nor is a code already
    /// typed in this process (a provider refuses reuse: the step waits for the next one).
    case totp(TOTPSource)
    /// A value of the current batch entry (`webauth batch`, ``LoginScript/variables``), by name:
    /// the entry says where it comes from (a literal, or env, a file or a command).
    case variable(String)

    public var description: String {
        switch self {
        case .literal: "a literal value"
        case .environment(let name): "$\(name)"
        case .file(let path): "file \(path)"
        case .command(let command, _): "command `\(command)`"
        case .outbox(let url): "the outbox at \(URLRedaction.redactingValues(url.absoluteString))"
        case .totp(let source): "\(source)"
        case .variable(let name): "var \(name)"
        }
    }

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

/// Why a ``LoginValue`` could not be read.
public enum LoginValueError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The source has no value (unset variable, unreadable file, failing command, empty outbox).
    case unavailable(String)
    /// A `{var: NAME}` value with no such value: `defined` lists the names the batch entry has,
    /// nil outside a batch (only `webauth batch` or ``LoginScript/variables`` gives variables).
    case undefinedVariable(name: String, defined: [String]?)

    public var description: String {
        switch self {
        case .unavailable(let message): message
        case .undefinedVariable(let name, nil):
            "{var: \(name)} has no value here: variables come from a batch entry (webauth batch FILE), and this sign-in has none"
        case .undefinedVariable(let name, let defined?):
            "the batch entry has no value named \(name) (it has \(defined.isEmpty ? "none" : defined.joined(separator: ", "))): add it to the entry, "
                + "or fix the script's {var: \(name)}"
        }
    }
}
