/// The options a command has that a failure's advice may name, so that advice is true for the
/// command that prints it: `status` has no `--verbose`, `token` no `--headless`.
struct OfferedOptions: OptionSet, Sendable {
    let rawValue: Int

    /// `--verbose`: the navigation log on stderr.
    static let verbose = OfferedOptions(rawValue: 1 << 0)
    /// `--timeout`: the time the whole command may take.
    static let timeout = OfferedOptions(rawValue: 1 << 1)
    /// `--headless`: the page rendered off screen.
    static let headless = OfferedOptions(rawValue: 1 << 2)
}
