// The sign-in without WebKit (OpenIDClient, the user-agent seam, the system browser, the device
// grant's QR code) is part of the engine's API: code that imports WebAuthSession keeps seeing it.
@_exported import OpenIDSignIn
