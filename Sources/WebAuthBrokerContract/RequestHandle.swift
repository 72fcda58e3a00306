/// Where a request object lives: `/org/webauthsession/Broker/request/SENDER/TOKEN`, SENDER the
/// caller's unique name without its `:` and with `.` as `_`, TOKEN the caller's `handle_token`
/// (xdg-desktop-portal's request pattern: the caller can subscribe to `Response` before calling).
public struct RequestHandle: Sendable, Hashable, CustomStringConvertible {
    /// The object path.
    public let path: String
    /// The caller's unique name.
    public let sender: String

    /// The handle of `sender`'s request `token`.
    public init(sender: String, token: String) {
        self.sender = sender
        let element = sender.drop { $0 == ":" }.map { $0 == "." ? "_" : String($0) }.joined()
        path = "\(BrokerContract.requestPathPrefix)/\(element)/\(token)"
    }

    public var description: String { path }

    /// The longest token a caller may give.
    public static let maximumTokenLength = 64

    /// `token` if it can be an object path element: ASCII letters, digits and `_`, not empty,
    /// at most ``maximumTokenLength``.
    public static func checkedToken(_ token: String) throws(BrokerError) -> String {
        guard !token.isEmpty, token.utf8.count <= maximumTokenLength,
              token.utf8.allSatisfy({ $0.isASCIILetterOrDigit || $0 == UInt8(ascii: "_") }) else {
            throw .invalidArgument("option 'handle_token' must be 1 to \(maximumTokenLength) ASCII letters, digits or '_'")
        }
        return token
    }
}

private extension UInt8 {
    var isASCIILetterOrDigit: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}
