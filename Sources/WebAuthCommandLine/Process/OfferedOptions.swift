/// The options a command has that a failure's advice may name, so that advice is true for the
/// command that prints it: `status` has no `--verbose`, `token` no `--headless`.
package struct OfferedOptions: OptionSet, Sendable {
    package let rawValue: Int

    /// An option set of `rawValue`.
    package init(rawValue: Int) { self.rawValue = rawValue }

    /// `--verbose`: the navigation log on stderr.
    package static let verbose = OfferedOptions(rawValue: 1 << 0)
    /// `--timeout`: the time the whole command may take.
    package static let timeout = OfferedOptions(rawValue: 1 << 1)
    /// `--headless`: the page rendered off screen.
    package static let headless = OfferedOptions(rawValue: 1 << 2)
}
