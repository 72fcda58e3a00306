// The login-script, batch-file and configuration-file formats live in SignInFiles (no WebKit,
// so the fuzzer links them); code that imports WebAuthSession keeps seeing them, as before.
@_exported import SignInFiles
