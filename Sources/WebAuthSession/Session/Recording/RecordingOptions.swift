/// How a ``LoginRecorder`` writes what was typed.
public struct RecordingOptions: Sendable, Hashable {
    /// Write the text typed into fields other than passwords and one-time codes as literal
    /// values; without it (the default) each becomes a batch variable (`{var: NAME}`), its value
    /// kept only in ``RecordedScript/recordedVariables``.
    public var keepValues: Bool

    /// Options; values are not kept unless asked.
    public init(keepValues: Bool = false) {
        self.keepValues = keepValues
    }
}
