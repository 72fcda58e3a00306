import SignInFiles
import WebAuthn

/// The login script a ``LoginRecorder`` made of one sign-in: its steps, each with the comment a
/// person would write beside it, what a replay needs from its environment, and the file's text
/// (``text``). No password, one-time code or TOTP secret is in it; other typed values only when
/// recorded with ``RecordingOptions/keepValues``.
public struct RecordedScript: Sendable, Hashable {
    /// One step with its comment, and whether its screen may not come back.
    public struct Step: Sendable, Hashable {
        /// The step.
        public var step: LoginStep
        /// The comment written above it, if any (a page's title, what a placeholder needs).
        public var comment: String?
        /// The step answers a screen that may not come back (a consent, "stay signed in?"):
        /// ``RecordedScript/makingOptional(_:)`` turns it into an optional step.
        public var oneOff: Bool
    }

    /// A variable a replay needs, and what it holds.
    public struct Requirement: Sendable, Hashable {
        /// The environment variable's name (`env:`, `totp: {secret_env:}`), or a batch file's
        /// variable (`var:`).
        public var name: String
        /// What it must hold, for the line that tells the person.
        public var meaning: String
        /// Whether it is an environment variable (else a batch entry's variable).
        public var isEnvironment: Bool
    }

    /// The steps, in order.
    public var steps: [Step]
    /// What a replay needs: environment variables to export, batch variables to give.
    public var requirements: [Requirement]
    /// The values typed for the batch variables (`var:`), by name: for a batch file, never
    /// written into the script.
    public var recordedVariables: [String: String]
    /// The page asked for a passkey: the script gets a `passkey:` block for the virtual
    /// authenticator, whose credentials file a replay needs.
    public var usesPasskey: Bool
    /// What was met and not recorded (an iframe, a closed shadow root).
    public var notes: [String]
    /// Where the sign-in started (its host only), for the file's first line.
    public var host: String

    /// The login script: the steps, with the virtual authenticator when the page asked for a passkey.
    public var script: LoginScript {
        var script = LoginScript(steps.map(\.step))
        if usesPasskey { script.passkey = VirtualAuthenticatorSettings(credentialsFile: RecordedScriptText.credentialsFile) }
        return script
    }

    /// The script with the steps at `indexes` (those the person said were one-off) made optional.
    public func makingOptional(_ indexes: Set<Int>) -> RecordedScript {
        var script = self
        for index in indexes where script.steps.indices.contains(index) && script.steps[index].step.elementSelector != nil {
            if case .optional = script.steps[index].step { continue }
            script.steps[index].step = .optional(script.steps[index].step)
        }
        return script
    }

    /// The script file's text (YAML), with its comments.
    public var text: String { RecordedScriptText(self).yaml }
}
