import Foundation
import OpenIDConnect
import WebAuthSupport

/// What every endpoint of the development provider reads: the configuration it started with, the
/// address it listens on, and the switches a test turns while it runs (the issuer it serves as,
/// the faults, the token lifetime). Only ``OpenIDProvider``'s own API turns them; the endpoints
/// read them.
final class ProviderContext: Sendable {
    /// The users, clients and settings the provider started with.
    let configuration: DevProviderConfiguration
    /// `http://HOST:PORT` of the provider's server.
    let baseURL: URL
    /// Not a `Mutex`: see ``LockedState`` (server threads read it while a test sets it).
    private let switches: LockedState<Switches>

    private struct Switches: Sendable {
        var issuer: String?
        var faults: Set<ProviderFault>
        var accessTokenLifetime: Int
    }

    init(configuration: DevProviderConfiguration, baseURL: URL) {
        self.configuration = configuration
        self.baseURL = baseURL
        switches = LockedState(Switches(faults: configuration.faults, accessTokenLifetime: configuration.accessTokenLifetime))
    }

    /// The issuer, the base of every endpoint: the server's address, or the one ``serve(as:)`` gave.
    var issuer: String { switches.withLock { $0.issuer } ?? baseURL.absoluteString }

    /// Names `issuer` as the provider's issuer from now on.
    func serve(as issuer: String) { switches.withLock { $0.issuer = issuer } }

    /// The faults injected now.
    var faults: Set<ProviderFault> {
        get { switches.withLock { $0.faults } }
        set { switches.withLock { $0.faults = newValue } }
    }

    /// Whether `fault` is injected now.
    func has(_ fault: ProviderFault) -> Bool { switches.withLock { $0.faults.contains(fault) } }

    /// The lifetime in seconds of the access and ID tokens issued from now on.
    var accessTokenLifetime: Int {
        get { switches.withLock { $0.accessTokenLifetime } }
        set { switches.withLock { $0.accessTokenLifetime = newValue } }
    }

    /// The configured user with `subject`.
    func user(subject: String) -> DevProviderConfiguration.User? { configuration.users.first { $0.subject == subject } }

    /// The configured user with this user name and password.
    func user(username: String?, password: String?) -> DevProviderConfiguration.User? {
        configuration.users.first { $0.username == username && $0.password == password }
    }

    /// The configured user with the email address `address` (compared without case).
    func user(email address: String) -> DevProviderConfiguration.User? {
        configuration.users.first { $0.email.caseInsensitiveCompare(address) == .orderedSame }
    }
}
