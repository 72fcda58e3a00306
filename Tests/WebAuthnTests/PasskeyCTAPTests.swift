import Crypto
import Foundation
import Testing
@testable import WebAuthn

/// CTAP2 over CTAPHID, the software key libfido2 talks to: framing, channels, and the CBOR
/// commands answered by the virtual authenticator.
@Suite("Passkey protocol: CTAP2 over CTAPHID")
struct PasskeyCTAPTests {
    /// A host's side of CTAPHID for the tests: sends messages as reports, reassembles answers.
    struct Host {
        let device: CTAPHIDDevice
        var channel = CTAPHIDDevice.broadcastChannel

        func packets(_ command: UInt8, _ payload: Data, on channel: UInt32) -> [Data] {
            let id = Data([24, 16, 8, 0].map { UInt8(truncatingIfNeeded: channel >> $0) })
            var packets = [id + Data([command, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]) + payload.prefix(57)]
            var rest = payload.dropFirst(57)
            var sequence: UInt8 = 0
            while !rest.isEmpty {
                packets.append(id + Data([sequence]) + rest.prefix(59))
                rest = rest.dropFirst(59)
                sequence += 1
            }
            return packets
        }

        func send(_ command: UInt8, _ payload: Data) -> (command: UInt8, payload: Data)? {
            for packet in packets(command, payload, on: channel) { device.write(packet) }
            return receive()
        }

        func receive() -> (command: UInt8, payload: Data)? {
            guard let first = device.read() else { return nil }
            let length = Int(first[5]) << 8 | Int(first[6])
            var payload = Data(first[7..<min(64, 7 + length)])
            while payload.count < length, let next = device.read() { payload.append(next[5..<min(64, 5 + length - payload.count)]) }
            return (first[4], payload)
        }

        mutating func initialize() throws {
            let nonce = Data([1, 2, 3, 4, 5, 6, 7, 8])
            let answer = try #require(send(0x86, nonce))
            #expect(answer.command == 0x86)
            #expect(answer.payload.prefix(8) == nonce)
            #expect(answer.payload[16] & 0x04 != 0, "CBOR capability")
            channel = answer.payload[8..<12].reduce(0) { $0 << 8 | UInt32($1) }
        }
    }

    static func device(_ settings: VirtualAuthenticatorSettings = .init()) throws -> (CTAPHIDDevice, VirtualAuthenticator) {
        let authenticator = try VirtualAuthenticator(settings: settings)
        return (CTAPHIDDevice(responder: CTAP2Responder(authenticator: authenticator)), authenticator)
    }

    @Test("INIT gives a channel; a 300-byte PING comes back whole across continuation packets")
    func ping() throws {
        var host = Host(device: try Self.device().0)
        try host.initialize()
        let payload = Data((0..<300).map { UInt8($0 & 0xFF) })
        let echo = try #require(host.send(0x81, payload))
        #expect(echo.command == 0x81)
        #expect(echo.payload == payload)
    }

    @Test("a command on a channel INIT never gave, or a continuation out of order: CTAPHID errors")
    func framingErrors() throws {
        var host = Host(device: try Self.device().0)
        host.channel = 0x1234_5678
        #expect(host.send(0x90, Data([0x04]))?.payload == Data([0x0B]), "ERR_INVALID_CHANNEL")
        try host.initialize()
        let packets = host.packets(0x81, Data(count: 200), on: host.channel)
        host.device.write(packets[0])
        host.device.write(packets[2])
        #expect(host.receive()?.payload == Data([0x04]), "ERR_INVALID_SEQ")
        var other = Host(device: host.device)
        try other.initialize()
        host.device.write(packets[0])
        #expect(other.send(0x81, Data([1]))?.payload == Data([0x06]), "ERR_CHANNEL_BUSY while another channel's message is half sent")
    }

    @Test("getInfo, makeCredential and getAssertion through CTAPHID, the signature checked with the credential's key")
    func cborCommands() throws {
        let (device, _) = try Self.device()
        var host = Host(device: device)
        try host.initialize()
        let info = try #require(host.send(0x90, Data([0x04])))
        #expect(info.payload.first == 0)
        let parsed = try CBORDecoder.decode(info.payload.dropFirst())
        #expect(parsed[1]?.arrayValue?.contains("FIDO_2_0") == true)
        #expect(parsed[4]?["rk"] == .bool(true))
        let hash = Data(SHA256.hash(data: Data("client data".utf8)))
        let make = CBORValue.map([(1, .bytes(hash)), (2, .map([("id", "example.com")])),
                                  (3, .map([("id", .bytes(Data([9]))), ("name", "alice")])),
                                  (4, .array([.map([("alg", -8), ("type", "public-key")])])), (7, .map([("rk", .bool(true))]))])
        let made = try #require(host.send(0x90, Data([0x01]) + make.encoded))
        #expect(made.payload.first == 0)
        let attestation = try CBORDecoder.decode(made.payload.dropFirst())
        #expect(attestation[1] == "none")
        let authenticatorData = try #require(attestation[2]?.bytesValue)
        let credential = try #require(try AuthenticatorData(decoding: authenticatorData).attestedCredential)
        #expect(credential.publicKey.algorithm == .edDSA)
        let get = CBORValue.map([(1, "example.com"), (2, .bytes(hash))])
        let asserted = try #require(host.send(0x90, Data([0x02]) + get.encoded))
        #expect(asserted.payload.first == 0)
        let assertion = try CBORDecoder.decode(asserted.payload.dropFirst())
        let authData = try #require(assertion[2]?.bytesValue)
        #expect(credential.publicKey.verifies(try #require(assertion[3]?.bytesValue), of: authData + hash))
        #expect(assertion[4]?["id"] == .bytes(Data([9])))
    }

    @Test("malformed and refused CBOR commands get CTAP2 status codes", arguments: [
        (Data([0x01, 0xFF]), CTAP2Status.invalidCBOR),
        (Data([0x01, 0x80]), .cborUnexpectedType),
        (Data([0x01]) + CBORValue.map([(1, .bytes(Data(count: 32)))]).encoded, .missingParameter),
        (Data([0x02]) + CBORValue.map([(1, "example.com"), (2, .bytes(Data(count: 32)))]).encoded, .noCredentials),
        (Data([0x02]) + CBORValue.map([(1, "example.com"), (2, .bytes(Data(count: 31)))]).encoded, .invalidParameter),
        (Data([0x42]), .invalidCommand),
        (Data(), .invalidLength),
    ])
    func statusCodes(message: Data, status: CTAP2Status) throws {
        let responder = CTAP2Responder(authenticator: try VirtualAuthenticator())
        #expect(responder.respond(to: message) == Data([status.rawValue]))
    }

    @Test("an excluded credential and an absent person are CTAP2's errors too")
    func authenticatorErrors() throws {
        let responder = CTAP2Responder(authenticator: try VirtualAuthenticator(settings: .init(userPresence: false)))
        let make = CBORValue.map([(1, .bytes(Data(count: 32))), (2, .map([("id", "example.com")])), (3, .map([("id", .bytes(Data([9])))])),
                                  (4, .array([.map([("alg", -7), ("type", "public-key")])]))])
        #expect(responder.respond(to: Data([0x01]) + make.encoded) == Data([CTAP2Status.operationDenied.rawValue]))
    }
}
