import OpenIDConnect

/// The keyring of a session where no Secret Service answers: it holds nothing and takes
/// nothing, so that a ``FallbackAuthStateStore`` in front of it saves to its file and says once,
/// on stderr, where the sign-in went (rather than a sign-in landing in a file with no word).
package struct AbsentKeyring: AuthStateStore {
    /// Why there is no keyring, as the Secret Service check said.
    package let reason: String

    package func load() async throws(AuthStateStoreError) -> AuthState? { nil }

    package func save(_ state: AuthState) async throws(AuthStateStoreError) {
        throw .io(path: "the Secret Service", message: reason)
    }

    package func remove() async throws(AuthStateStoreError) {}
}
