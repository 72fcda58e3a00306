import OpenIDConnect

/// The names of every saved sign-in (`webauth profiles`, the broker's accounts): the files' under
/// `$XDG_STATE_HOME/webauthsession`, and the keyring's when a Secret Service answers.
/// - Returns: the names, sorted, and why the keyring's are missing when it answered but could not be searched.
/// - Throws: `AuthStateStoreError` when the folder of the files cannot be read.
public func savedSignInNames() async throws(AuthStateStoreError) -> (names: [String], keyringProblem: AuthStateStoreError?) {
    var names = Set(try FileAuthStateStore.savedNames())
    var problem: AuthStateStoreError?
    if await SecretServiceAuthStateStore.isAvailable {
        do { names.formUnion(try await SecretServiceAuthStateStore.savedNames()) } catch { problem = error }
    }
    return (names.sorted(), problem)
}
