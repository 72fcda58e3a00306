import Logging

/// The log handler of a command with `--verbose`: the library's records on stderr, less its
/// `navigation` records, which ``Narrator/follow(_:)`` writes from the session's events (each
/// navigation was printed twice, once by each).
struct NarratedLogHandler: LogHandler {
    var stream: StreamLogHandler

    var metadataProvider: Logger.MetadataProvider? {
        get { stream.metadataProvider }
        set { stream.metadataProvider = newValue }
    }

    var metadata: Logger.Metadata {
        get { stream.metadata }
        set { stream.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { stream[metadataKey: key] }
        set { stream[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        guard !(event.level == .debug && event.message.description == "navigation") else { return }
        stream.log(event: event)
    }
}
