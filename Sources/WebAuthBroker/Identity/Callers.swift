import Foundation
import Logging
import WebAuthBrokerContract

/// Who each caller is, found once per connection: the bus daemon's credentials, then `/proc`.
/// A connection's process does not change while it is connected, so the answer is kept until
/// its name vanishes (``forget(_:)``).
@BusActor
final class Callers {
    private let connection: BusConnection
    private var known: [String: Task<Result<CallerApplication, BrokerError>, Never>] = [:]

    init(connection: BusConnection) {
        self.connection = connection
    }

    /// The app behind the unique name `sender`.
    /// - Throws: ``BrokerErrorName/accessDenied`` for a process of another user (a session bus
    ///   has none, unless it was opened to them) or one that cannot be identified (see
    ///   ``CallerApplication``), ``BrokerErrorName/failed`` when the process cannot be read.
    func application(of sender: String) async throws(BrokerError) -> CallerApplication {
        let lookup = known[sender] ?? Task { @BusActor [connection] () -> Result<CallerApplication, BrokerError> in
            do throws(BrokerError) {
                let credentials = try await connection.credentials(of: sender)
                guard credentials.userID == getuid() else {
                    return .failure(BrokerError(.accessDenied, "the caller runs as another user (uid \(credentials.userID))"))
                }
                do throws(CallerIdentityError) {
                    return .success(try CallerApplication.of(processID: credentials.processID))
                } catch {
                    switch error {
                    case .unreadable(let reason):
                        return .failure(BrokerError(.failed, "the caller's process \(credentials.processID) cannot be read (it has exited?): \(reason)"))
                    case .untrusted(let reason):
                        return .failure(BrokerError(.accessDenied, "the caller (process \(credentials.processID)) cannot be identified: \(reason)"))
                    }
                }
            } catch {
                return .failure(error)
            }
        }
        known[sender] = lookup
        return try await lookup.value.get()
    }

    /// Forgets `sender`, whose name vanished.
    func forget(_ sender: String) {
        known[sender] = nil
    }
}
