import ArgumentParser
import Foundation
import OpenIDConnect
import WebAuthSession

/// The documented exit statuses of `webauth`, one per kind of outcome, so scripts can react.
enum ExitStatus: Int32, CaseIterable {
    /// It worked.
    case success = 0
    /// Something on this machine failed: no display could be had, the saved sign-in could not be read or written.
    case localFailure = 1
    /// The person cancelled: closed the window, or denied access.
    case cancelled = 2
    /// The provider answered with an error or something the protocol does not allow.
    case providerError = 3
    /// The provider could not be reached, or its TLS certificate is not valid.
    case networkError = 4
    /// No answer in time.
    case timedOut = 5
    /// There is no usable saved sign-in: run `webauth login`.
    case signInRequired = 6
    /// The login script stopped at a step.
    case scriptFailed = 7
    /// The page asks for what only a person can give: a captcha, a passkey or security key.
    case needsPerson = 8
    /// The command line or the configuration file is wrong.
    case usage = 64
    /// `webauth exec`: the program was found but cannot be run (as a shell says).
    case cannotRun = 126
    /// `webauth exec`: no such program (as a shell says).
    case commandNotFound = 127
    /// Ctrl-C (SIGINT) stopped it; nothing after the interruption was done.
    case interrupted = 130
    /// SIGTERM stopped it; nothing after the interruption was done.
    case terminated = 143

    /// What a person can do about it, naming only what a command with `options` has.
    func advice(offering options: OfferedOptions) -> String {
        switch self {
        case .success, .interrupted, .terminated: ""
        case .localFailure: options.contains(.verbose) ? "--verbose shows more; `webauth doctor` checks what a sign-in needs here."
            : "`webauth doctor` checks what a sign-in needs here."
        case .cancelled: "Run the command again to retry."
        case .providerError: "Check the issuer, client ID and redirect URI registered at the provider, or try again later."
        case .networkError: "Check that the provider is reachable and its certificate is valid, then retry."
        case .timedOut: options.contains(.timeout) ? "Retry, or allow more time with --timeout." : "Retry."
        case .signInRequired: "Run `webauth login` first."
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
struct CommandFailure: Error, CustomStringConvertible {
    let status: ExitStatus
    let message: String
    /// What a person can do about it, when the failure knows better than its status's advice.
    let advice: String?

    init(_ status: ExitStatus, _ message: String, advice: String? = nil) {
        self.status = status
        self.message = message
        self.advice = advice
    }

    /// What a person can do about it, in a command that has `options`: ``advice``, else the status's.
    func advice(offering options: OfferedOptions) -> String {
        advice ?? status.advice(offering: options)
    }

    /// The one line a command prints for it: `Error: what. What to do.`
    func line(offering options: OfferedOptions) -> String {
        let advice = advice(offering: options)
        return "Error: \(message).\(advice.isEmpty ? "" : " " + advice)\n"
    }

    var description: String { message }

    init(_ error: SignInError) {
        switch error {
        case .session(let session): self.init(Self.status(of: session), "sign-in failed: \(session)")
        case .openIDConnect(.insecureEndpoint(let name, let url)):
            self.init(.usage, "sign-in failed: \(OpenIDConnectError.insecureEndpoint(name: name, url: url)) "
                + "(--allow-insecure-http, or allow_insecure_http in --config)")
        case .openIDConnect(let protocolError):
            self.init(Self.status(of: protocolError), "sign-in failed: \(protocolError)", advice: Self.advice(of: protocolError))
        case .script(.captchaRequired(let kind, let text, _)):
            self.init(.needsPerson, "sign-in failed: \(SignInScriptError.captchaRequired(kind: kind, pageText: text, report: nil))")
        case .script(let failure): self.init(.scriptFailed, "sign-in failed: \(failure)")
        case .storage(let storage): self.init(.localFailure, "\(storage)")
        case .deviceAuthorization(let device): self = DeviceSignIn.failure(device)
        }
    }

    init(_ error: AuthStateError) {
        switch error {
        case .signInRequired(let reason): self.init(.signInRequired, "not signed in: \(reason)")
        case .openIDConnect(let protocolError): self.init(Self.status(of: protocolError), "\(protocolError)", advice: Self.advice(of: protocolError))
        case .saveFailed: self.init(.localFailure, "\(error)")
        case .userinfoSubjectMismatch: self.init(.providerError, "\(error)")
        case .accessTokenRefused: self.init(.providerError, "\(error)", advice: "`webauth status` lists the scopes the sign-in was granted.")
        case .noIDToken, .idTokenNotRenewed: self.init(.signInRequired, "\(error)")
        }
    }

    init(_ error: AuthStateStoreError) {
        if case .lockWaitTimedOut = error { self.init(.timedOut, "gave up waiting for the profile's lock: \(error)"); return }
        self.init(.localFailure, "the saved sign-in cannot be used: \(error)")
    }

    private static func status(of error: WebAuthenticationError) -> ExitStatus {
        switch error {
        case .closedByUser, .cancelled: .cancelled
        case .timedOut, .abandoned: .timedOut
        case .loadFailed, .tlsFailure: .networkError
        case .invalidCallback, .embeddedViewRefused, .providerErrorPage, .formActionBlocked: .providerError
        // Only a login script's page settles, and the page was still asking for something: the
        // script or the values it typed (a wrong password) are what to fix.
        case .pageSettled, .httpAuthenticationFailed: .scriptFailed
        case .passkeyRequested, .httpAuthenticationRefused: .needsPerson
        case .formPostNotCapturable, .invalidOption, .proxyAuthenticationFailed: .usage
        // What to present (a certificate, its PIN) is the command's to give.
        case .clientCertificateRequested, .clientCertificatePINRefused: .usage
        // A host the sign-in may not send its secret to (secret_hosts lists the ones it may).
        case .secretRefused: .usage
        case .webProcessTerminated, .noDisplay, .noDisplayForWindow, .loopbackListenerUnavailable, .profileUnavailable, .alreadyStarted, .engineShutDown,
             .browserUnavailable, .passkeyCredentialsUnusable:
            .localFailure
        }
    }

    /// What to do about `error` when its status's advice is not the best: a certificate the
    /// system does not trust may come from an internal CA, which the CA file options add; a
    /// token's PIN comes from the environment.
    private static func advice(of error: OpenIDConnectError) -> String? {
        if case .clientKey(.pinNeeded) = error { return "Give the token's PIN in WEBAUTH_PKCS11_PIN." }
        if case .clientKey(.wrongPIN) = error { return "Check WEBAUTH_PKCS11_PIN: a token locks after a few wrong PINs." }
        guard case .http(.tls) = error else { return nil }
        return "If the provider's certificate comes from an internal CA, trust it with --ca-file, or ca_file in the configuration file "
            + "(\(ConfigurationFile.defaultPath(CommandEnvironment.original)) for the commands without --config)."
    }

    private static func status(of error: OpenIDConnectError) -> ExitStatus {
        switch error {
        case .http(.timedOut): .timedOut
        case .http(.proxyAuthenticationFailed): .usage
        case .http: .networkError
        case .clientKey: .usage
        case .authorization(let oauth) where oauth.isAccessDenied: .cancelled
        default: .providerError
        }
    }
}

extension AsyncParsableCommand {
    /// Runs `body`; a failure is printed as `Error: what. What to do.` on stderr and ends the
    /// process with its documented status (never a stack trace). The advice names only the
    /// `options` the command has.
    func reportingFailures(offering options: OfferedOptions = [], _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let failure as CommandFailure {
            FileHandle.standardError.write(Data(failure.line(offering: options).utf8))
            throw ExitCode(failure.status.rawValue)
        }
    }

    /// ``reportingFailures(offering:_:)``, and Ctrl-C or SIGTERM cancels `body`: then the process prints
    /// `Interrupted: outcome.` on stderr and exits 130 or 143, leaving no display, web process
    /// or scratch directory behind (see ``Interruption``).
    func reportingFailures(ifInterrupted outcome: String, offering options: OfferedOptions = [],
                           _ body: @escaping @Sendable () async throws -> Void) async throws {
        try await reportingFailures(offering: options) {
            if let interruption = try await Interruption.cancelling(body) { interruption.exit(saying: outcome) }
        }
    }
}
