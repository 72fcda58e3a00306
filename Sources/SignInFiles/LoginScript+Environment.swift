import Foundation

extension LoginScript {
    /// The environment variables the script reads secrets or values from: its steps' and
    /// `http_auth`'s `env:` values, `secret_env:` TOTP seeds, and those of its batch entry's values.
    /// A program that runs it can read them into memory first and take them out of its environment,
    /// so WebKit's processes never inherit them (``run(in:environment:http:artifactsDirectory:progress:)``
    /// reads values from the `environment` it is given, not from the process's).
    public var environmentVariableNames: Set<String> {
        func values(_ steps: [LoginStep]) -> [LoginValue] {
            steps.flatMap { step -> [LoginValue] in
                switch step {
                case .fill(_, let value), .type(_, let value): [value]
                case .optional(let inner, _): values([inner])
                case .when(_, let inner): values(inner)
                default: []
                }
            }
        }
        let all = values(steps) + [httpAuthentication?.password].compactMap { $0 } + (variables.map { Array($0.values) } ?? [])
        return Set(all.flatMap(\.environmentVariableNames))
    }
}

extension LoginValue {
    /// The environment variables this value's secret is read from: an `env:` value's, a TOTP
    /// seed's (none for a literal, a file, a command or an outbox).
    public var environmentVariableNames: [String] {
        switch self {
        case .environment(let name): [name]
        case .totp(let source): if case .environment(let name) = source.secret { [name] } else { [] }
        case .literal, .file, .command, .outbox, .variable: []
        }
    }
}
