import Foundation
import OpenIDConnect
import SignInFiles
import WebAuthSupport

/// The second factor of a user with a TOTP secret: who owes a code on which page, and the last
/// time step each person used, so a code is good once (RFC 6238 §5.2).
final class TOTPFactor: Sendable {
    private struct Pending: Sendable {
        /// People past their password who owe a code, by interaction.
        var subjects: [String: String] = [:]
        /// The last time step used, by subject.
        var lastSteps: [String: UInt64] = [:]
    }

    private let context: ProviderContext
    /// Not a `Mutex`: see ``LockedState`` (server threads).
    private let pending = LockedState(Pending())

    init(context: ProviderContext) {
        self.context = context
    }

    /// The code page for `subject`, who has just given the right password.
    func ask(subject: String) -> LoginProgress {
        let interaction = ProviderForm.randomToken()
        pending.withLock { $0.subjects[interaction] = subject }
        return .page(LoginPage.totp(interaction: interaction, error: nil), status: 200)
    }

    /// Checks a code against the current time step and the one before (a code typed as its step
    /// ended), refusing a step whose code was already used.
    func verify(interaction: String, code: String) -> LoginProgress {
        guard let subject = pending.withLock({ $0.subjects[interaction] }),
              let secret = context.user(subject: subject)?.totpSecret,
              let generator = try? TimeBasedOneTimePassword(base32Secret: secret) else {
            return .invalid
        }
        let now = generator.timeStep(at: Date())
        guard let step = [now, now - 1].first(where: { generator.code(forTimeStep: $0) == code }) else {
            return .page(LoginPage.totp(interaction: interaction, error: "That code is not right. Try again."), status: 401)
        }
        let fresh = pending.withLock { pending in
            guard pending.lastSteps[subject].map({ $0 < step }) ?? true else { return false }
            pending.lastSteps[subject] = step
            pending.subjects[interaction] = nil
            return true
        }
        guard fresh else {
            return .page(LoginPage.totp(interaction: interaction, error: "That code was already used. Wait for the next one."), status: 401)
        }
        return .authenticated(subject: subject)
    }
}
