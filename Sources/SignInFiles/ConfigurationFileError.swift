/// Why a configuration file (``ConfigurationFile``) cannot be used: which file, what kind of
/// problem, and a message that says where (the CLI prints it as it is, as a usage failure).
package struct ConfigurationFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem; more may come.
    package struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The name of the kind, for logs and tests.
        package let description: String

        /// The file is missing or cannot be read.
        package static let unreadable = Code(description: "unreadable")
        /// The file is not JSON or a property list, or not a dictionary.
        package static let malformed = Code(description: "malformed")
        /// A key the file may not hold.
        package static let unknownKey = Code(description: "unknown key")
        /// A known key whose value is of the wrong type.
        package static let wrongType = Code(description: "wrong type")
    }

    /// The kind of problem.
    package let code: Code
    /// The configuration file.
    package let path: String
    /// What is wrong, naming the file (and the key or the line and column when there is one).
    package let message: String

    /// A problem of kind `code` with the file at `path`.
    package init(_ code: Code, path: String, _ message: String) {
        (self.code, self.path, self.message) = (code, path, message)
    }

    package var description: String { message }
}
