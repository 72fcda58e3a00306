/// What a ``LoginRecorder`` tells its observer while the person signs in: never a typed value.
public enum RecordingProgress: Sendable, Hashable, CustomStringConvertible {
    /// A page of the sign-in is on the screen (parsed, its first frame drawn, its `autofocus`
    /// field focused) and is being recorded (its path and title).
    case page(path: String, title: String)
    /// An action was recorded: the step it becomes, described without its value.
    case recorded(String)
    /// Something out of scope was met (an iframe, a closed shadow root) and not recorded.
    case outOfScope(String)

    public var description: String {
        switch self {
        case .page(let path, let title): "page \(path) (\(title))"
        case .recorded(let step): "recorded: \(step)"
        case .outOfScope(let text): "not recorded: \(text)"
        }
    }
}
