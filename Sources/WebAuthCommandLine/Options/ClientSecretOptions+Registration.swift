import OpenIDConnect

/// The authentication of a client that registered itself (`webauth register`), for the commands
/// that act for its sign-ins.
extension ClientSecretOptions {
    /// How a client that registered itself authenticates (its registered secret), or the failure
    /// that says its secret expired and how to register again.
    package static func authentication(of registered: RegisteredClient) throws(CommandFailure) -> ClientAuthentication {
        do throws(ClientRegistrationError) { return try registered.authentication() } catch {
            throw CommandFailure(.usage, "\(error)", advice: "Register a new client with webauth register (the same --profile), then sign in again.")
        }
    }
}
