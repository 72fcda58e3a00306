/// The name of an account: what `webauth` calls a profile (`--profile NAME`), the name of its
/// saved sign-in and of its cookie folder. `default` when a caller names none.
public enum AccountName {
    /// The account a caller gets when it names none.
    public static let standard = "default"

    /// `name` checked as the stores take it: not empty, no `/`, not `.` or `..`.
    public static func checked(_ name: String) throws(BrokerError) -> String {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            throw .invalidArgument("option 'account' must be a name without '/' (not empty, '.' or '..')")
        }
        return name
    }
}
