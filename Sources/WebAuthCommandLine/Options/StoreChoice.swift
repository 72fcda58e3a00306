import ArgumentParser
import Foundation
import OpenIDConnect
import WebAuthNetwork
import WebAuthKeyring
import WebAuthExitStatus

/// Where a sign-in is kept: `--store`, or `store` in `--config`. Without either, the keyring
/// when one answers and can take it, else a file.
package enum StoreChoice: String, CaseIterable, ExpressibleByArgument {
    /// The Secret Service; a sign-in it cannot take goes to the file, with a warning.
    case keyring
    /// `$XDG_STATE_HOME/webauthsession/NAME.json`, mode 0600.
    case file
    /// Nothing is saved.
    case none
}

/// Opening a profile's store, for saving a new sign-in (checked before any page opens) or for
/// reading a saved one.
package enum ProfileStore {
    /// The store a new sign-in of `name` will be saved in, or `nil` for ``StoreChoice/none``. The
    /// store is checked now, before any page opens: the keyring answers and its default collection
    /// is there and unlocked (without a choice, a keyring that cannot take it means the file, with a
    /// warning; no keyring at all means the file, with a note once it is saved there), and the file's folder (the fallback's too) can be written.
    package static func forSaving(name: String, choice: StoreChoice?) async throws(CommandFailure) -> (any AuthStateStore)? {
        let file = try fileStore(name)
        let store: any AuthStateStore
        switch choice {
        case .none?: return nil
        case .file?: store = file
        case .keyring?:
            if let problem = await SecretServiceAuthStateStore.problem() {
                throw CommandFailure(.localFailure, "the keyring cannot keep the sign-in: \(problem); or choose --store file")
            }
            store = try keyringWithFallback(name, file)
        case nil:
            switch await SecretServiceAuthStateStore.problem() {
            case nil: store = try keyringWithFallback(name, file)
            case .unreachable(let message)?:
                // The file, and one line once it is saved, so that it is not a surprise.
                store = FallbackAuthStateStore(primary: AbsentKeyring(reason: message), fallback: file) { _, path in
                    note("no keyring (Secret Service) answers here: the sign-in was saved in \(path.path) (mode 0600)")
                }
            case let problem?:
                warning("the keyring cannot keep the sign-in (\(problem)); it will be saved in \(file.fileURL.path)")
                store = file
            }
        }
        do throws(AuthStateStoreError) { try file.checkWritable() } catch { throw CommandFailure(error) }
        return store
    }

    /// Runs `body` holding the profile's lock (`flock` on `NAME.lock` in the state folder), so that
    /// two sign-ins of one profile take turns: when another process holds it, says so on stderr
    /// and waits at most `limit` (then ``ExitStatus/timedOut``).
    package static func whileHoldingLock(of name: String, waitingAtMost limit: Duration,
                                 _ body: @Sendable () async throws -> Void) async throws {
        do {
            try await fileStore(name).withExclusiveLock(waitingAtMost: limit, whileWaiting: {
                FileHandle.standardError.write(Data("Another sign-in of the profile '\(name)' is in progress; waiting for it to finish (at most \(limit.components.seconds) s).\n".utf8))
            }, body)
        } catch let error as AuthStateStoreError {
            throw CommandFailure(error)
        }
    }

    /// The store a saved sign-in of `name` is read from (and its refreshes saved to): with the
    /// keyring, its fallback file is read first.
    package static func forReading(name: String, choice: StoreChoice?) async throws(CommandFailure) -> any AuthStateStore {
        let file = try fileStore(name)
        switch choice {
        case .none?: throw CommandFailure(.usage, "--store none keeps no sign-in to use")
        case .file?: return file
        case .keyring?: return try keyringWithFallback(name, file)
        case nil: return await SecretServiceAuthStateStore.isAvailable ? try keyringWithFallback(name, file) : file
        }
    }

    /// The sign-in `store` holds; a damaged one, or one saved by a newer version, is an error
    /// that names it and the fix.
    package static func load(_ name: String, from store: any AuthStateStore) async throws(CommandFailure) -> AuthState? {
        do { return try await store.load() } catch {
            switch error {
            case .corrupt, .newerVersion:
                throw CommandFailure(.localFailure, "\(error)", advice: "`webauth logout --local --profile \(name)` removes it.")
            default: throw CommandFailure(error)
            }
        }
    }

    /// Removes the saved sign-in of `name` if it cannot be read (damaged, or saved by a newer version).
    /// - Returns: where it was, or `nil` when there is nothing unreadable to remove.
    package static func removingUnreadable(name: String, choice: StoreChoice?) async throws(CommandFailure) -> String? {
        let store = try await forReading(name: name, choice: choice)
        let location: String
        do {
            _ = try await store.load()
            return nil
        } catch {
            switch error {
            case .corrupt(let path, _), .newerVersion(let path, _): location = path
            default: return nil  // not for this path: the ordinary sign-out reports it
            }
        }
        do throws(AuthStateStoreError) { try await store.remove() } catch { throw CommandFailure(error) }
        return location
    }

    /// `file:PATH` or `secret-service:NAME`: where the state is (with the keyring, the fallback file if it holds it).
    package static func describe(_ store: any AuthStateStore) -> String {
        switch store {
        case let file as FileAuthStateStore: "file:" + file.fileURL.path
        case let secret as SecretServiceAuthStateStore: "secret-service:" + secret.name
        case let fallback as FallbackAuthStateStore:
            FileManager.default.fileExists(atPath: fallback.fallback.fileURL.path) ? describe(fallback.fallback) : describe(fallback.primary)
        default: String(describing: type(of: store))
        }
    }

    /// The names of every saved sign-in: the files', and the keyring's when one answers.
    package static func savedNames() async throws(CommandFailure) -> [String] {
        let saved: (names: [String], keyringProblem: AuthStateStoreError?)
        do { saved = try await savedSignInNames() } catch { throw CommandFailure(error) }
        if let problem = saved.keyringProblem { warning("the keyring's sign-ins are not listed: \(problem)") }
        return saved.names
    }

    private static func fileStore(_ name: String) throws(CommandFailure) -> FileAuthStateStore {
        do { return try FileAuthStateStore(name: name) } catch { throw CommandFailure(.usage, "\(error)") }
    }

    private static func keyringWithFallback(_ name: String, _ file: FileAuthStateStore) throws(CommandFailure) -> FallbackAuthStateStore {
        let keyring: SecretServiceAuthStateStore
        do { keyring = try SecretServiceAuthStateStore(name: name) } catch { throw CommandFailure(.usage, "\(error)") }
        return FallbackAuthStateStore(primary: keyring, fallback: file) { keyringError, path in
            warning("the keyring could not save the sign-in (\(keyringError)); it was saved in \(path.path) (mode 0600) instead")
        }
    }

    private static func note(_ message: String) {
        FileHandle.standardError.write(Data("Note: \(message)\n".utf8))
    }

    private static func warning(_ message: String) {
        FileHandle.standardError.write(Data("Warning: \(message)\n".utf8))
    }
}
