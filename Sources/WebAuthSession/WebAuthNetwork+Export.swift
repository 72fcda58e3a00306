// What the engine is built on and what its public API names, kept visible to code that imports
// WebAuthSession, as before they moved out of it so `webauth-tokens` links them without WebKit: the engine's own HTTP
// (`SoupHTTPClient`, `ProxySetting`, `TrustedCAFile`, `ClientCertificate`), the keyring store
// (`SecretServiceAuthStateStore`), and the GLib lifetime kit (package access only: the broker's
// GDBus code uses it too).
@_exported import WebAuthNetwork
@_exported import WebAuthKeyring
@_exported import GLibKit
