import OpenIDConnect
import WebAuthBrokerContract
import WebAuthSession

/// Whether one caller may sign one account in or out, decided while the account's lock is held,
/// against what is saved there at that moment, never against a reading made before the lock (an
/// app that waited behind another sign-in would otherwise act on an account it was never granted).
///
/// - An account with a saved sign-in needs the caller's grant, or the person's answer, before
///   anything runs: the question is asked while the lock is held, so a `webauth login` of the
///   same profile waits for the answer.
/// - An account with no saved sign-in under the lock is new: it starts clean, with no app's
///   grant from an earlier sign-in of that name and no provider cookies an earlier, failed
///   sign-in left in its folder (they could belong to another app's person, and would sign the
///   next app in without a page). The app that signs it in is granted it once it is saved.
/// - A sign-out takes every app's grant with it, so whoever signs the name in next is asked anew.
@BusActor
struct AccountAdmission: Sendable {
    /// Who asks.
    let app: CallerApplication
    /// The account it asks for.
    let account: String
    /// The caller's window, over which a question is shown.
    let parent: ParentWindow?
    let access: AccessPolicy
    let accounts: AccountStore

    /// Lets the caller sign the account in, given `saved`, the sign-in saved there now.
    /// - Throws: ``BrokerErrorName/accessDenied`` for an existing account the caller may not use.
    func admitSignIn(replacing saved: AuthState?) async throws(BrokerError) {
        if let saved {
            return try await access.check(app, account: account, issuer: saved.configuration.issuer, parent: parent)
        }
        try access.forget(account: account)
        if try await accounts.clearWebsiteData(account) {
            accounts.logger.info("the account '\(account)' is new: the website data an earlier sign-in left in its folder was deleted")
        }
    }

    /// Records that the caller signed the account in.
    func signedIn() throws(BrokerError) {
        try access.allow(app, account: account)
    }

    /// Lets the caller sign out the account, whose saved sign-in is `saved`.
    /// - Throws: ``BrokerErrorName/notSignedIn`` when there is none; ``BrokerErrorName/accessDenied``
    ///   when the caller may not use it.
    func admitSignOut(of saved: AuthState?) async throws(BrokerError) {
        guard let saved else { throw BrokerError(.notSignedIn, "no saved sign-in named '\(account)'") }
        try await access.check(app, account: account, issuer: saved.configuration.issuer, parent: parent)
    }

    /// Forgets every app's grant on the account, whose sign-in is gone.
    func signedOut() throws(BrokerError) {
        try access.forget(account: account)
    }
}
