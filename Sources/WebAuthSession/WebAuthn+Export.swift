// WebAuthn's types are in the engine's API (a login script's `passkey`, the virtual
// authenticator, the credentials file's errors): code that imports WebAuthSession sees them.
@_exported import WebAuthn
