import Foundation
import OpenIDConnect
import Synchronization
import Testing
import WebAuthSupport

@Suite("File auth state store")
struct FileAuthStateStoreTests {
    /// A state made without a provider: a configuration and a decoded token response.
    static func state(_ accessToken: String = "AT-1") throws -> AuthState {
        let configuration = ProviderConfiguration(issuer: "https://id.example.com", authorizationEndpoint: URL(string: "https://id.example.com/a")!,
                                                  tokenEndpoint: URL(string: "https://id.example.com/t")!)
        let tokens = try JSONDecoder().decode(TokenResponse.self, from: Data(#"{"access_token":"\#(accessToken)","token_type":"Bearer","expires_in":3600,"refresh_token":"RT"}"#.utf8))
        return AuthState(configuration: configuration, clientID: "app", authorizationResponse: nil, tokenResponse: tokens, idToken: nil)
    }

    func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("webauth-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func mode(_ path: String) throws -> Int { try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as! Int }

    @Test("round trip under $XDG_STATE_HOME, directory 0700, file 0600, no temporary file left")
    func roundTrip() throws {
        let base = try scratch()
        defer { try? FileManager.default.removeItem(at: base) }
        let store = try FileAuthStateStore(name: "default", environment: ["XDG_STATE_HOME": base.path])
        #expect(store.fileURL.path == base.path + "/webauthsession/default.json")
        #expect(try store.load() == nil)
        try store.save(try Self.state("AT-1"))
        try store.save(try Self.state("AT-2"))
        #expect(try store.load()?.accessToken == "AT-2")
        #expect(try mode(store.fileURL.path) == 0o600)
        #expect(try mode(store.fileURL.deletingLastPathComponent().path) == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: base.path + "/webauthsession") == ["default.json"])
        try store.remove()
        #expect(try store.load() == nil)
        try store.remove()
    }

    @Test("a corrupt or foreign file is a typed error and is never overwritten", arguments: [
        ("{ this is not json", "corrupt"),
        (#"{"format":"webauthsession.auth-state","state":{"version":1}}"#, "corrupt"),
        (#"{"format":"webauthsession.auth-state","state":{"version":2,"client_id":"x"}}"#, "corrupt"),
        (#"{"some":"other program's settings"}"#, "foreign"),
    ])
    func refused(content: String, kind: String) throws {
        let base = try scratch()
        defer { try? FileManager.default.removeItem(at: base) }
        let store = try FileAuthStateStore(name: "default", directory: base)
        try Data(content.utf8).write(to: store.fileURL)
        for attempt in [{ _ = try store.load() }, { try store.save(try Self.state()) }] {
            do {
                try attempt()
                Issue.record("accepted \(content)")
            } catch let error as AuthStateStoreError {
                switch (kind, error) {
                case ("corrupt", .corrupt), ("foreign", .foreignFile): break
                default: Issue.record("\(content): \(error)")
                }
            }
        }
        #expect(try String(contentsOf: store.fileURL, encoding: .utf8) == content)
    }

    @Test("a write that cannot happen is an I/O error")
    func ioError() throws {
        let base = try scratch()
        defer { try? FileManager.default.removeItem(at: base) }
        let blocker = base.appendingPathComponent("blocker")
        try Data().write(to: blocker)
        let store = try FileAuthStateStore(name: "default", directory: blocker.appendingPathComponent("dir"))
        #expect(throws: AuthStateStoreError.self) { try store.save(try Self.state()) }
    }

    @Test("a folder of another user is refused, for reading, writing and locking (tests run as root: chown to nobody)")
    func foreignFolder() async throws {
        let base = try scratch()
        defer { try? FileManager.default.removeItem(at: base) }
        let store = try FileAuthStateStore(name: "default", directory: base)
        let nobody = try #require(getpwnam("nobody")).pointee.pw_uid
        try #require(chown(base.path, nobody, gid_t(nobody)) == 0)
        let refused = AuthStateStoreError.directoryNotOwned(path: base.path, owner: nobody)
        #expect(throws: refused) { try store.load() }
        #expect(throws: refused) { try store.save(try Self.state()) }
        await #expect(throws: refused) { try await store.withExclusiveLock { Issue.record("ran under a lock in a foreign folder") } }
        #expect(try FileManager.default.contentsOfDirectory(atPath: base.path).isEmpty)
        #expect(refused.description.contains(base.path))
    }

    @Test("a folder that group or others may write is refused, and the message says chmod 700", arguments: [0o770, 0o707, 0o1777])
    func writableFolder(mode: Int) async throws {
        let base = try scratch()
        defer { try? FileManager.default.removeItem(at: base) }
        let store = try FileAuthStateStore(name: "default", directory: base)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: base.path)
        let refused = AuthStateStoreError.directoryWritableByOthers(path: base.path, mode: UInt32(mode))
        #expect(throws: refused) { try store.load() }
        #expect(throws: refused) { try store.save(try Self.state()) }
        await #expect(throws: refused) { try await store.withExclusiveLock { Issue.record("ran under a lock in a shared folder") } }
        #expect(try FileManager.default.contentsOfDirectory(atPath: base.path).isEmpty)
        #expect(refused.description.contains("chmod 700 \(base.path)"))
    }

    @Test("a symbolic link planted as NAME.lock is refused, not followed")
    func plantedLockLink() async throws {
        let base = try scratch()
        defer { try? FileManager.default.removeItem(at: base) }
        let store = try FileAuthStateStore(name: "default", directory: base)
        let target = base.appendingPathComponent("victim")
        let lock = base.appendingPathComponent("default.lock")
        try FileManager.default.createSymbolicLink(atPath: lock.path, withDestinationPath: target.path)
        await #expect(throws: AuthStateStoreError.lockFileIsSymbolicLink(path: lock.path)) {
            try await store.withExclusiveLock { Issue.record("ran under a lock taken through a symbolic link") }
        }
        #expect(!FileManager.default.fileExists(atPath: target.path), "the link's target was created")
    }

    @Test("a second holder of the lock is told it must wait, and gets the lock when the first lets go")
    func waitsForTheLock() async throws {
        let base = try scratch()
        defer { try? FileManager.default.removeItem(at: base) }
        let (released, release) = AsyncStream<Void>.makeStream()
        let (held, holding) = AsyncStream<Void>.makeStream()
        let first = Task {
            try await FileAuthStateStore(name: "default", directory: base).withExclusiveLock {
                holding.yield()
                for await _ in released { break }
                return "first"
            }
        }
        for await _ in held { break }
        let told = Mutex(0)
        let second = try await FileAuthStateStore(name: "default", directory: base).withExclusiveLock(waitingAtMost: nil, whileWaiting: {
            told.withLock { $0 += 1 }
            release.yield()  // only now may the first let go
        }) { "second" }
        #expect(second == "second" && told.withLock { $0 } == 1)
        #expect(try await first.value == "first")
    }

    @Test("a wait past its limit is a typed error, and the lock is free again once its holder lets go")
    func lockWaitLimit() async throws {
        let base = try scratch()
        defer { try? FileManager.default.removeItem(at: base) }
        let store = try FileAuthStateStore(name: "default", directory: base)
        let (released, release) = AsyncStream<Void>.makeStream()
        let (held, holding) = AsyncStream<Void>.makeStream()
        let first = Task {
            try await store.withExclusiveLock {
                holding.yield()
                for await _ in released { break }
            }
        }
        for await _ in held { break }
        let lockPath = base.appendingPathComponent("default.lock").path
        await #expect(throws: AuthStateStoreError.lockWaitTimedOut(path: lockPath)) {
            try await store.withExclusiveLock(waitingAtMost: .milliseconds(200), whileWaiting: {}) { Issue.record("ran without the lock") }
        }
        release.yield()
        try await first.value
        #expect(try await store.withExclusiveLock { "after" } == "after")
    }

    @Test("NAME.lock exists only while the lock is held: none is left for a name once its holder lets go, nor after a failed body")
    func lockFileGoesWithTheLock() async throws {
        let base = try scratch()
        defer { try? FileManager.default.removeItem(at: base) }
        let lock = base.appendingPathComponent("tried.lock").path
        let store = try FileAuthStateStore(name: "tried", directory: base)
        #expect(try await store.withExclusiveLock { FileManager.default.fileExists(atPath: lock) })
        // Before: a tried.lock stayed for every name ever locked.
        #expect(!FileManager.default.fileExists(atPath: lock))
        await #expect(throws: CancellationError.self) { try await store.withExclusiveLock { throw CancellationError() } }
        #expect(!FileManager.default.fileExists(atPath: lock))
    }

    @Test("holders that remove the lock file as they let go still take turns: a waiter on a removed file locks the one at the path anew")
    func removedLockFileStillExcludes() async throws {
        let base = try scratch()
        defer { try? FileManager.default.removeItem(at: base) }
        // Holders come back for the lock while others wait on the file the last holder removed: a
        // newcomer makes a new file at once, and without the waiter's check of the path, both would hold "the" lock.
        let counts = LockedState((inside: 0, most: 0, turns: 0))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let store = try FileAuthStateStore(name: "shared", directory: base)
                    for _ in 0..<25 {
                        try await store.withExclusiveLock {
                            counts.withLock { $0.inside += 1; $0.most = max($0.most, $0.inside) }
                            await Task.yield()
                            counts.withLock { $0.turns += 1; $0.inside -= 1 }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(counts.withLock { $0.most } == 1, "two holders at once")
        #expect(counts.withLock { $0.turns } == 200)
        #expect(try FileManager.default.contentsOfDirectory(atPath: base.path).isEmpty, "no lock file left")
    }

    @Test("names that could escape the directory are refused", arguments: ["", "../x", "a/b", ".", ".."])
    func badNames(name: String) {
        #expect(throws: AuthStateStoreError.invalidName(name)) { try FileAuthStateStore(name: name) }
    }
}
