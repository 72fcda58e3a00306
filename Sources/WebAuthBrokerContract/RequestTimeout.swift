/// The `timeout` option of a request: seconds the whole request may take.
enum RequestTimeout {
    /// The longest a request may be given: a day.
    static let maximumSeconds: UInt32 = 86_400

    /// `seconds` as a duration; `nil` when not given.
    static func decode(_ seconds: UInt32?) throws(BrokerError) -> Duration? {
        guard let seconds else { return nil }
        guard seconds > 0, seconds <= maximumSeconds else {
            throw .invalidArgument("option 'timeout' must be 1 to \(maximumSeconds) seconds")
        }
        return .seconds(seconds)
    }
}
