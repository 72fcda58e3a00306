import Foundation
import Logging
import OpenIDConnect
import WebAuthBrokerContract
import WebAuthSession
import WebAuthSupport

/// The broker's accounts are `webauth`'s profiles: the same stores (the keyring when a Secret
/// Service answers, with a 0600 file under `$XDG_STATE_HOME/webauthsession` as its fallback;
/// else the file), the same lock (`NAME.lock`, taken by `webauth login --profile NAME` too) and
/// the same cookie folder (`$XDG_DATA_HOME/webauthsession/profiles/NAME`). Whether a Secret
/// Service answers is asked once, when the broker starts, not at every call.
struct AccountStore: Sendable {
    /// The environment the broker started with (its folders).
    let environment: [String: String]
    /// Whether a Secret Service answered when the broker started.
    let keyringAnswers: Bool
    let logger: Logger
    /// Whether the keyring's refusal of a sign-in has been logged. Once per broker: a Secret
    /// Service that answers but cannot take items (no default collection, as under a bare
    /// `dbus-run-session`) refuses every save, and each goes to its file as designed.
    let keyringRefusalLogged = LockedState(false)

    /// The store of `account`'s saved sign-in.
    func store(_ account: String) throws(BrokerError) -> any AuthStateStore {
        do {
            return try automaticAuthStateStore(name: account, keyringAnswers: keyringAnswers) { [self] keyringError, file in
                keyringRefused("\(keyringError)", file: file)
            }
        } catch {
            throw BrokerError(error)
        }
    }

    /// The store a new sign-in of `account` is saved in: ``store(_:)``'s, but its file when the
    /// keyring answers and cannot take it now (no default collection, a locked one), as
    /// `webauth login` decides. Saving there would have gnome-keyring ask the person, in the middle
    /// of a sign-in, to create or unlock a keyring.
    func storeForSaving(_ account: String) async throws(BrokerError) -> any AuthStateStore {
        guard keyringAnswers, let problem = await SecretServiceAuthStateStore.problem() else { return try store(account) }
        do {
            let file = try FileAuthStateStore(name: account)
            keyringRefused("\(problem)", file: file.fileURL)
            return file
        } catch {
            throw BrokerError(error)
        }
    }

    /// Logs, once per broker, that the keyring refused a sign-in (`reason`) and it went to `file`.
    private func keyringRefused(_ reason: String, file: URL) {
        guard keyringRefusalLogged.withLock({ said in defer { said = true }; return !said }) else {
            return logger.debug("the keyring refused the sign-in too; it was saved in \(file.path)")
        }
        logger.warning("""
            the keyring could not save the sign-in (\(reason)); it was saved in \(file.path) (mode 0600) instead, \
            as every sign-in the keyring refuses will be, without this warning again
            """)
    }

    /// `account`'s saved sign-in and its store; `nil` when it has none.
    func load(_ account: String) async throws(BrokerError) -> (state: AuthState?, store: any AuthStateStore) {
        let store = try store(account)
        do { return (try await store.load(), store) } catch { throw BrokerError(error) }
    }

    /// The names of every saved sign-in.
    func names() async throws(BrokerError) -> [String] {
        do {
            let saved = try await savedSignInNames()
            if let problem = saved.keyringProblem { logger.warning("the keyring's sign-ins are not listed: \(problem)") }
            return saved.names
        } catch {
            throw BrokerError(error)
        }
    }

    /// Runs `body` holding `account`'s lock, taking turns with `webauth` and other requests;
    /// waits at most `limit`.
    func whileLocked<T: Sendable>(_ account: String, waitingAtMost limit: Duration,
                                  _ body: @Sendable () async throws(BrokerError) -> T) async throws(BrokerError) -> T {
        let file: FileAuthStateStore
        do { file = try FileAuthStateStore(name: account) } catch { throw BrokerError(error) }
        let account = account
        do {
            return try await file.withExclusiveLock(waitingAtMost: limit, whileWaiting: { [logger] in
                logger.info("another sign-in of the account '\(account)' is in progress; waiting for it")
            }) { () async throws -> T in try await body() }
        } catch let error as BrokerError {
            throw error
        } catch let error as AuthStateStoreError {
            throw BrokerError(error)
        } catch {
            throw BrokerError(.cancelled, "the request was cancelled")
        }
    }

    /// Deletes `account`'s provider cookies and other website data, when it has a folder.
    /// - Returns: whether it had one.
    @discardableResult
    func clearWebsiteData(_ account: String) async throws(BrokerError) -> Bool {
        guard case .persistent(let directory) = websiteData(account), FileManager.default.fileExists(atPath: directory.path) else { return false }
        do { try await WebAuthEngine.clearWebsiteData(profileDirectory: directory) } catch {
            throw BrokerError(.failed, "could not delete the account's cookies: \(error)")
        }
        return true
    }

    /// Where `account`'s provider cookies are kept.
    func websiteData(_ account: String) -> WebAuthenticationOptions.WebsiteData {
        .profile(account, environment: environment)
    }
}
