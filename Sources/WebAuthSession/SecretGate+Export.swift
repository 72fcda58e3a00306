// The secret gate's types are in the engine's API (`WebAuthenticationError.secretRefused`, a
// session's gate for passkeys): code that imports WebAuthSession sees them.
@_exported import SecretGate
