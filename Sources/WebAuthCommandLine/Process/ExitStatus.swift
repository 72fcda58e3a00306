import ArgumentParser
import Foundation
import OpenIDConnect
import SignInFiles
import WebAuthNetwork
import WebAuthKeyring
import WebAuthExitStatus

/// What a person can do about each status; the statuses themselves are ``ExitStatus`` of
/// WebAuthSession, which the broker answers with too.
extension ExitStatus {
    /// What a person can do about it, naming only what a command with `options` has, and the
    /// saved sign-in's `profile` when the command was given one other than `default`.
    package func advice(offering options: OfferedOptions, profile: String? = nil) -> String {
        switch self {
        case .success, .interrupted, .terminated: ""
        case .localFailure: options.contains(.verbose) ? "--verbose shows more; `webauth doctor` checks what a sign-in needs here."
            : "`webauth doctor` checks what a sign-in needs here."
        case .cancelled: "Run the command again to retry."
        case .providerError: "Check the issuer, client ID and redirect URI registered at the provider, or try again later."
        case .networkError: "Check that the provider is reachable and its certificate is valid, then retry."
        case .timedOut: options.contains(.timeout) ? "Retry, or allow more time with --timeout." : "Retry."
        case .signInRequired: "Run `webauth login\(profile.map { $0 == "default" ? "" : " --profile \($0)" } ?? "")` first."
        case .scriptFailed: options.contains(.verbose) ? "Fix the login script: the step it names, or the value it typed; --verbose shows the navigation log."
            : "Fix the login script: the step it names, or the value it typed."
        case .needsPerson: "Sign in as a person\(options.contains(.headless) ? " (without --headless)" : ""), "
            + "or use an account the provider signs in with a password or one-time code."
        case .usage: "See `webauth help`."
        case .cannotRun: "Check that the program is an executable file you may run."
        case .commandNotFound: "Check the program's name, or give its path; PATH is searched."
        }
    }
}

/// A failure to report as one line, with the exit status that says what kind it is.
package struct CommandFailure: Error, CustomStringConvertible {
    package let status: ExitStatus
    package let message: String
    /// What a person can do about it, when the failure knows better than its status's advice.
    package let advice: String?

    package init(_ status: ExitStatus, _ message: String, advice: String? = nil) {
        self.status = status
        self.message = message
        self.advice = advice
    }

    /// What a person can do about it, in a command that has `options` (and uses `profile`):
    /// ``advice``, else the status's.
    package func advice(offering options: OfferedOptions, profile: String? = nil) -> String {
        advice ?? status.advice(offering: options, profile: profile)
    }

    /// The one line a command prints for it: `Error: what. What to do.`
    package func line(offering options: OfferedOptions, profile: String? = nil) -> String {
        let advice = advice(offering: options, profile: profile)
        return "Error: \(message).\(advice.isEmpty ? "" : " " + advice)\n"
    }

    package var description: String { message }

    /// `failure` as the command reports it.
    package init(_ failure: ReportedFailure) {
        self.init(failure.status, failure.message, advice: failure.advice)
    }


    package init(_ error: AuthStateError) {
        if case .openIDConnect(.http(.tls)) = error { self.init(ReportedFailure(error).with(advice: Self.caFileAdvice)); return }
        self.init(ReportedFailure(error))
    }

    package init(_ error: AuthStateStoreError) {
        self.init(ReportedFailure(error))
    }

    /// For a provider's certificate the system does not trust.
    package static var caFileAdvice: String {
        "If the provider's certificate comes from an internal CA, trust it with --ca-file, or ca_file in the configuration file "
            + "(\(ConfigurationFile.defaultPath(CommandEnvironment.original)) for the commands without --config)."
    }
}

extension ReportedFailure {
    /// This failure with `advice` instead of its own.
    package func with(advice: String) -> ReportedFailure { ReportedFailure(status, message, advice: advice) }
}

/// Runs a command's `body`; a failure is printed as `Error: what. What to do.` on stderr and ends the
/// process with its documented status (never a stack trace). The advice names only the
/// `options` the command has, and the `profile` it uses.
package func reportingFailures(offering options: OfferedOptions = [], profile: String? = nil, _ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let failure as CommandFailure {
        FileHandle.standardError.write(Data(failure.line(offering: options, profile: profile).utf8))
        throw ExitCode(failure.status.rawValue)
    }
}

/// ``reportingFailures(offering:_:)``, and Ctrl-C or SIGTERM cancels `body`: then the process prints
/// `Interrupted: outcome.` on stderr and exits 130 or 143, leaving no display, web process
/// or scratch directory behind (see ``Interruption``).
package func reportingFailures(ifInterrupted outcome: String, offering options: OfferedOptions = [], profile: String? = nil,
                              _ body: @escaping @Sendable () async throws -> Void) async throws {
    try await reportingFailures(offering: options, profile: profile) {
        if let interruption = try await Interruption.cancelling(body) { interruption.exit(saying: outcome) }
    }
}
