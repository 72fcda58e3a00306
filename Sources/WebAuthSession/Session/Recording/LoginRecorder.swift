import Foundation
import Synchronization

/// Records a person's sign-in as a login script (`webauth record`): give it to the
/// session's options (``WebAuthenticationOptions/recorder``), let the person sign in in the
/// window, then ask for the ``script(options:)``, which replays that sign-in headless.
///
/// ```swift
/// let recorder = LoginRecorder { print($0) }
/// var options = WebAuthenticationOptions()
/// options.recorder = recorder
/// _ = try await client.signIn(options: options)
/// try recorder.script().text.write(toFile: "login.yaml", atomically: true, encoding: .utf8)
/// ```
///
/// What the person does on each page of the top frame (clicks, typed text, Enter, checkboxes,
/// `<select>` choices, account choosers) is heard in the engine's isolated world from trusted
/// events only (`RecorderScript`). A password is never sent to it; no typed value reaches
/// `onProgress`. The script reads a password from the environment, a one-time code from a TOTP
/// secret in the environment, other text from a batch variable unless values are kept.
public final class LoginRecorder: Sendable {
    private let events = Mutex<[RecordedEvent]>([])
    private let onProgress: @Sendable (RecordingProgress) -> Void

    /// A recorder; `onProgress` hears each page and action as it is recorded (never a value).
    public init(onProgress: @escaping @Sendable (RecordingProgress) -> Void = { _ in }) {
        self.onProgress = onProgress
    }

    /// The script of what was recorded so far.
    public func script(options: RecordingOptions = RecordingOptions()) -> RecordedScript {
        let events = events.withLock { $0 }
        return RecordingTranslator.script(of: events, host: events.first?.host ?? "", options: options)
    }

    /// A message of the recorder's page script; one that does not parse is dropped (only the
    /// engine's isolated world can post to its handler).
    func receive(_ message: String) {
        guard let event = try? JSONDecoder().decode(RecordedEvent.self, from: Data(message.utf8)) else { return }
        events.withLock { $0.append(event) }
        onProgress(Self.progress(of: event))
    }

    /// What the observer hears of `event`: the page, the action without its value, or what was not recorded.
    private static func progress(of event: RecordedEvent) -> RecordingProgress {
        let selector = "'\(event.selector ?? "")'"
        switch event.kind {
        case .page: return .page(path: event.path, title: event.title)
        case .note: return .outOfScope(event.text ?? "")
        case .passkey: return .recorded("the page asked for a passkey (\(event.text ?? ""))")
        case .field: return .recorded(event.secret == true ? "a password typed into \(selector)" : "text typed into \(selector)")
        case .enter: return .recorded("Enter pressed in \(selector)")
        case .click: return .recorded("click \(selector)")
        case .check: return .recorded("check \(selector)")
        case .uncheck: return .recorded("uncheck \(selector)")
        case .select: return .recorded("an option chosen in \(selector)")
        }
    }
}
