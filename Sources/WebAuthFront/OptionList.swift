/// A command line's options as the front reads them, strictly: `--name value` and `--name=value`
/// among the names a command allows (each at most once unless repeatable, with a value that does
/// not look like an option), and flags. Anything else is `nil`: the command that runs it answers,
/// errors and help included.
struct OptionList {
    /// The values given, by option name, in order.
    private(set) var values: [String: [String]] = [:]
    /// The flags given.
    private(set) var flags: Set<String> = []

    /// Reads `arguments` (the command's, after its name).
    init?(_ arguments: ArraySlice<String>, single: Set<String>, repeatable: Set<String> = [], flags allowedFlags: Set<String> = []) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if allowedFlags.contains(argument) {
                guard flags.insert(argument).inserted else { return nil }
                continue
            }
            let name: String, value: String
            if let equals = argument.firstIndex(of: "=") {
                (name, value) = (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
            } else {
                guard let next = rest.popFirst() else { return nil }
                (name, value) = (argument, next)
            }
            guard single.contains(name) && values[name] == nil || repeatable.contains(name), !value.hasPrefix("-") else { return nil }
            values[name, default: []].append(value)
        }
    }

    /// The one value of `name`, if given.
    subscript(_ name: String) -> String? { values[name]?.first }
}
