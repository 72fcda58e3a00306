import Foundation
import OpenIDConnect
import Testing
import TestSupport
import WebAuthnTestSupport
@testable import WebAuthn

/// The virtual authenticator's 0600 credentials file: what one run registers, the next signs in
/// with; a file others can read, or a damaged one, is a typed error naming it.
@Suite("Passkey protocol: the credentials file")
struct PasskeyCredentialFileTests {
    static func temporaryPath() -> String {
        TemporaryFiles.path("passkeys", fileExtension: "json").path
    }

    @Test("a registration in one run serves the sign-in of the next, the file is 0600, and the counter is kept")
    func persistence() async throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path); try? FileManager.default.removeItem(atPath: path + ".lock") }
        let first = PasskeyClientTests.client(try VirtualAuthenticator(settings: .init(credentialsFile: path)))
        _ = try await first.create(CredentialCreationOptions(json: PasskeyOptions.creation()))
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        for run in 1...2 {
            let next = PasskeyClientTests.client(try VirtualAuthenticator(settings: .init(credentialsFile: path)))
            let assertion = try await next.get(CredentialRequestOptions(json: PasskeyOptions.request()))
            let data = try AuthenticatorData(decoding: try #require(Base64URL.decode(assertion["response"]!["authenticatorData"]!.stringValue!)))
            #expect(data.signCount == UInt32(run))
        }
    }

    @Test("user picks among an account's several discoverable credentials; without it the newest answers")
    func chosenUser() async throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path); try? FileManager.default.removeItem(atPath: path + ".lock") }
        let registering = PasskeyClientTests.client(try VirtualAuthenticator(settings: .init(credentialsFile: path)))
        _ = try await registering.create(CredentialCreationOptions(json: PasskeyOptions.creation(userID: "AQID")))
        var bob = PasskeyOptions.creation(userID: "BAUG")
        if case .object(var members) = bob, case .object(var user)? = members["user"] {
            user["name"] = .string("bob")
            members["user"] = .object(user)
            bob = .object(members)
        }
        _ = try await registering.create(CredentialCreationOptions(json: bob))
        for (user, handle) in [("alice", "AQID"), (nil, "BAUG")] as [(String?, String)] {
            let client = PasskeyClientTests.client(try VirtualAuthenticator(settings: .init(credentialsFile: path, user: user)))
            let assertion = try await client.get(CredentialRequestOptions(json: PasskeyOptions.request()))
            #expect(assertion["response"]?["userHandle"]?.stringValue == handle)
        }
    }

    @Test("two authenticators on one file keep each other's registrations (sessions side by side)")
    func sideBySide() async throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path); try? FileManager.default.removeItem(atPath: path + ".lock") }
        let one = try VirtualAuthenticator(settings: .init(credentialsFile: path, discoverable: false))
        let two = try VirtualAuthenticator(settings: .init(credentialsFile: path, discoverable: false))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, authenticator) in [one, two, one, two].enumerated() {
                group.addTask {
                    _ = try await PasskeyClientTests.client(authenticator).create(
                        CredentialCreationOptions(json: PasskeyOptions.creation(userID: Base64URL.encode([UInt8(index + 1)]))))
                }
            }
            try await group.waitForAll()
        }
        #expect(try one.credentials.count == 4)
    }

    @Test("a file others can read is refused, naming it and the fix", arguments: [0o644, 0o640, 0o604, 0o660])
    func readableByOthers(mode: Int) throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = FileManager.default.createFile(atPath: path, contents: Data(#"{"version":1,"credentials":[]}"#.utf8), attributes: [.posixPermissions: mode])
        #expect(throws: VirtualCredentialFileError.readableByOthers(path: path, mode: UInt32(mode))) {
            try VirtualAuthenticator(settings: .init(credentialsFile: path))
        }
        #expect(VirtualCredentialFileError.readableByOthers(path: path, mode: UInt32(mode)).description.contains("chmod 600 \(path)"))
    }

    @Test("a damaged file is refused, naming it and what is wrong", arguments: [
        ("not json", "JSON"),
        (#"{"version":2,"credentials":[]}"#, "version 2"),
        (#"{"version":1}"#, "credentials"),
        (#"{"version":1,"credentials":[{"id":"AQ","rp_id":"x","user_handle":"AQ","algorithm":-7,"private_key":"AAAA","sign_count":0,"discoverable":true,"created":0}]}"#,
         "not an ES256 key"),
        (#"{"version":1,"credentials":[{"id":"AQ","rp_id":"x","user_handle":"AQ","algorithm":-257,"private_key":"AAAA","sign_count":0,"discoverable":true,"created":0}]}"#,
         "ES256"),
    ])
    func damaged(contents: String, reason: String) throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = FileManager.default.createFile(atPath: path, contents: Data(contents.utf8), attributes: [.posixPermissions: 0o600])
        #expect { try VirtualAuthenticator(settings: .init(credentialsFile: path)) } throws: { error in
            guard case .damaged(let named, let why) = error as? VirtualCredentialFileError else { return false }
            return named == path && why.contains(reason)
        }
    }

    @Test("a credential's description names its account and relying party, never its key")
    func description() async throws {
        let authenticator = try VirtualAuthenticator()
        _ = try await PasskeyClientTests.client(authenticator).create(CredentialCreationOptions(json: PasskeyOptions.creation()))
        let credential = try #require(try authenticator.credentials.first)
        #expect("\(credential)" == "ES256 credential of alice for example.com")
        #expect(!"\(credential)".contains(Base64URL.encode(credential.privateKey)))
    }
}
