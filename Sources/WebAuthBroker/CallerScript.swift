import Foundation
import OpenIDConnect
import WebAuthBrokerContract
import WebAuthSession
import WebAuthSupport

/// A caller's login script (``ScriptSource``): its text from the call, or the regular file behind
/// a descriptor the caller passed, read off the bus thread and capped in size. The broker never
/// opens a path a caller names, and no message about a caller's script repeats its text (a
/// caller could otherwise read a file through the error it gets).
enum CallerScript {
    /// The script `source` gives, when the broker takes scripts (`allowed`).
    /// - Throws: ``BrokerErrorName/invalidArgument`` for a broker without `--allow-scripts`, a
    ///   descriptor that is not a regular file, a script too large, not UTF-8 or not valid, or
    ///   one that reads a variable the broker keeps in its environment.
    @BusActor
    static func load(_ source: ScriptSource?, of call: IncomingCall, allowed: Bool) async throws(BrokerError) -> LoginScript? {
        guard let source else { return nil }
        guard allowed else {
            throw .invalidArgument("a login script (script_content, script_fd) needs a broker started with --allow-scripts (for tests and CI)")
        }
        let text: String
        switch source {
        case .content(let content): text = content
        case .fileDescriptor(let index):
            let descriptor = try call.fileDescriptor(at: index)
            text = try await onOwnThread(named: "webauth-script-read") { () throws(BrokerError) -> String in try read(descriptor) }
        }
        let script: LoginScript
        do { script = try LoginScript(text: text, path: "(the caller's)") } catch {
            throw .invalidArgument("the login script is not valid\(position(of: error)) (the broker does not repeat a caller's script)")
        }
        if let kept = script.environmentVariableNames.sorted().first(where: ScriptEnvironment.keeps) {
            throw .invalidArgument("the login script reads $\(kept), which stays in the broker's environment (WebKit's processes inherit it): "
                + "give the secret a variable of its own")
        }
        return script
    }

    /// The text of the regular file open as `descriptor`, which is closed here.
    private static func read(_ descriptor: Int32) throws(BrokerError) -> String {
        defer { close(descriptor) }
        let bytes: [UInt8]
        do throws(CappedFileRead.Problem) { bytes = try CappedFileRead.bytes(of: descriptor, atMost: ScriptSource.maximumBytes) } catch {
            switch error {
            case .notRegularFile: throw .invalidArgument("option 'script_fd' must be an open regular file")
            case .tooLarge: throw .invalidArgument("the login script holds more than \(ScriptSource.maximumBytes) bytes")
            case .unreadable(let reason): throw .invalidArgument("the login script could not be read: \(reason)")
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self), !text.utf8.contains(0) else {
            throw .invalidArgument("the login script is not UTF-8 text")
        }
        return text
    }

    /// ` at line L, column C` when the decoder said where, else nothing: never the words it quoted.
    private static func position(of error: LoginScriptFileError) -> String {
        guard case .invalid(_, let message) = error,
              let match = message.firstMatch(of: /^line (\d+), column (\d+)/) else { return "" }
        return " at line \(match.1), column \(match.2)"
    }
}
