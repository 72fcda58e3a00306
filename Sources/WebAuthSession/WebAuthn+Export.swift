// WebAuthn's and SecurityKeys' types are in the engine's API (a login script's `passkey`, the
// virtual authenticator, the credentials file's errors, the security keys of a window or kiosk):
// code that imports WebAuthSession sees them.
@_exported import SecurityKeys
@_exported import WebAuthn
