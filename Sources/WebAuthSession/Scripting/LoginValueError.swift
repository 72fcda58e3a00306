/// Why a ``LoginValue`` could not be read.
public enum LoginValueError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The source has no value (unset variable, unreadable file, failing command, empty outbox).
    case unavailable(String)
    /// A `{var: NAME}` value with no such value: `defined` lists the names the batch entry has,
    /// nil outside a batch (only `webauth batch` or ``LoginScript/variables`` gives variables).
    case undefinedVariable(name: String, defined: [String]?)

    public var description: String {
        switch self {
        case .unavailable(let message): message
        case .undefinedVariable(let name, nil):
            "{var: \(name)} has no value here: variables come from a batch entry (webauth batch FILE), and this sign-in has none"
        case .undefinedVariable(let name, let defined?):
            "the batch entry has no value named \(name) (it has \(defined.isEmpty ? "none" : defined.joined(separator: ", "))): add it to the entry, "
                + "or fix the script's {var: \(name)}"
        }
    }
}
