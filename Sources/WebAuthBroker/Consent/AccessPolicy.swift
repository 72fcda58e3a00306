import Logging
import OpenIDConnect
import SecretGate
import WebAuthBrokerContract
import WebAuthSession

/// Who may use which account, on ``SecretGate``: `webauth` itself every account (it reads the
/// stores anyway), the app that signed an account in that account, and any other app the accounts
/// the person allowed it. The first time an app asks for an account it has no answer for, the
/// person is asked in a window; the answer is remembered (``ConsentStore``). With no display, no
/// one can be asked, and the answer is no: never a silent yes.
@BusActor
final class AccessPolicy {
    private let consent: ConsentStore
    private let logger: Logger
    /// The gate of the consent file's content as last read, and what identified that content.
    private var cachedGate: (version: [Int], gate: SecretGate)?
    /// The questions on screen, by app and account: a second request for the same waits for the same answer.
    private var asking: [String: Task<Result<Bool, BrokerError>, Never>] = [:]

    init(consent: ConsentStore, logger: Logger) {
        self.consent = consent
        self.logger = logger
    }

    /// Who `app` is to the gate.
    static func recipient(_ app: CallerApplication) -> SecretRecipient {
        app.kind == .webauth ? .process("webauth") : .application(app.id)
    }

    /// The gate as the remembered answers make it (the file is read again only once it has changed).
    func gate() throws(BrokerError) -> SecretGate {
        let version = consent.version()
        if let cachedGate, cachedGate.version == version { return cachedGate.gate }
        let answers: [ConsentAnswer]
        do { answers = try consent.answers() } catch { throw BrokerError(.failed, "\(error)") }
        var granted: [String: Set<String>] = [:]
        for answer in answers where answer.allowed { granted[answer.app, default: []].insert(answer.account) }
        let gate = SecretGate(grantedAccounts: granted)
        cachedGate = (version, gate)
        return gate
    }

    /// Whether the gate lets `app` have `account`'s tokens now, without asking anyone.
    func mayUse(_ app: CallerApplication, account: String) throws(BrokerError) -> Bool {
        (try? gate().check(.accessToken(profile: account), to: Self.recipient(app))) != nil
    }

    /// Lets `app` use `account` (signed in to `issuer`), asking the person when nobody has yet.
    /// - Throws: ``BrokerErrorName/accessDenied`` when the person denies it, denied it before, or
    ///   cannot be asked.
    func check(_ app: CallerApplication, account: String, issuer: String, parent: ParentWindow?) async throws(BrokerError) {
        if try mayUse(app, account: account) { return }
        let remembered: Bool?
        do { remembered = try consent.answer(app: app.id, account: account) } catch { throw BrokerError(.failed, "\(error)") }
        if remembered == false {
            throw BrokerError(.accessDenied, "the person did not allow \(app) to use the account '\(account)'; `webauth broker --grant` allows it")
        }
        let key = app.id + "\n" + account
        let question = asking[key] ?? ask(app, account: account, issuer: issuer, parent: parent)
        asking[key] = question
        let answer = await question.value
        asking[key] = nil
        guard try answer.get() else {
            throw BrokerError(.accessDenied, "the person did not allow \(app) to use the account '\(account)'")
        }
    }

    /// Remembers that `app` may use `account` (it signed it in, or `--grant` said so).
    func allow(_ app: CallerApplication, account: String) throws(BrokerError) {
        guard app.kind != .webauth else { return }
        do { try consent.record(ConsentAnswer(app: app.id, account: account, allowed: true)) } catch { throw BrokerError(.failed, "\(error)") }
    }

    /// Forgets every app's answer about `account`: its sign-in ended, or a new one begins there.
    func forget(account: String) throws(BrokerError) {
        do {
            let removed = try consent.forget(account: account)
            if removed > 0 { logger.info("\(removed) answers about the account '\(account)' forgotten") }
        } catch {
            throw BrokerError(.failed, "\(error)")
        }
    }

    /// Asks the person in a window, and remembers the answer.
    private func ask(_ app: CallerApplication, account: String, issuer: String, parent: ParentWindow?) -> Task<Result<Bool, BrokerError>, Never> {
        var question = AccessQuestion(title: "Allow access to your sign-in?",
                                      text: "\(app) wants to use your sign-in to \(issuer) as \(account).")
        question.parentWindow = parent
        let (consent, logger) = (consent, logger)
        return Task { @BusActor in
            let allowed: Bool
            do { allowed = try await WebAuthEngine.ask(question) } catch {
                logger.info("access of \(app.id) to the account '\(account)' refused: no one can be asked (\(error))")
                let why = (error as? WebAuthenticationError) == .noDisplayForWindow ? "the broker has no display to ask on" : "\(error)"
                return .failure(BrokerError(.accessDenied, "no one can be asked whether \(app) may use the account '\(account)' (\(why)); "
                    + "allow it from a terminal: webauth broker --grant '\(app.id)' \(account)"))
            }
            do { try consent.record(ConsentAnswer(app: app.id, account: account, allowed: allowed)) } catch {
                logger.warning("the answer could not be remembered: \(error)")
            }
            logger.info("the person \(allowed ? "allowed" : "denied") \(app.id) the account '\(account)'")
            return .success(allowed)
        }
    }
}
