/// Where a caller's login script comes from: its text in the call, or a file the caller opened
/// and passed as a descriptor. Never a path: the broker opens no file a caller names, so a
/// sandboxed caller cannot reach the host's files through it.
public enum ScriptSource: Sendable, Hashable {
    /// The script's text (`script_content`).
    case content(String)
    /// An index into the call's file descriptors (`script_fd`).
    case fileDescriptor(index: Int32)

    /// The most bytes a script may hold, as text or as a file: a login script is a few hundred.
    public static let maximumBytes = 256 * 1024

    /// Reads `script_content` or `script_fd` (not both), and refuses the old `script` path.
    /// - Throws: ``BrokerErrorName/invalidArgument``.
    static func read(_ reader: inout BusOptions) throws(BrokerError) -> ScriptSource? {
        try reader.refuse("script", "the broker opens no file a caller names; send the script's text as script_content, "
            + "or the open file as script_fd (a file descriptor)")
        let content = try reader.document("script_content", maximumBytes: maximumBytes)
        let index = try reader.fileDescriptorIndex("script_fd")
        switch (content, index) {
        case (let content?, nil): return .content(content)
        case (nil, let index?): return .fileDescriptor(index: index)
        case (nil, nil): return nil
        case (_?, _?): throw .invalidArgument("give one of the options script_content and script_fd, not both")
        }
    }
}
