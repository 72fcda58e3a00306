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
    /// A file's contents, without the final newline.
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
}
