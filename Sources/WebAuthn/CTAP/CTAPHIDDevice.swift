import Foundation

/// A CTAPHID device (CTAP 2.1 §11.2) in software: 64-byte HID reports in, 64-byte reports out,
/// with channels, message reassembly, PING, INIT, WINK, CANCEL and CBOR, the CBOR commands
/// answered by a ``CTAP2Responder``. It is what libfido2's custom I/O talks to where no
/// `/dev/uhid` lets a software key be plugged in; any sequence of reports gets answers or a
/// CTAPHID error, never a crash.
public final class CTAPHIDDevice: @unchecked Sendable {
    // @unchecked: every stored var is read and written only inside `lock.withLock`.
    /// The size of a HID report.
    public static let reportSize = 64
    /// The broadcast channel INIT is sent on.
    public static let broadcastChannel: UInt32 = 0xFFFF_FFFF
    /// The longest message: one init packet's 57 bytes and 128 continuation packets' 59.
    public static let maximumMessageSize = 57 + 128 * 59

    /// CTAPHID commands (§11.2.9), with the high bit of an init packet set.
    enum Command: UInt8 {
        case ping = 0x81, message = 0x83, lock = 0x84, initialize = 0x86, wink = 0x88, cbor = 0x90, cancel = 0x91
        case keepAlive = 0xBB, error = 0xBF
    }

    /// CTAPHID error codes (§11.2.9.1.6).
    enum Failure: UInt8 {
        case invalidCommand = 0x01, invalidParameter = 0x02, invalidLength = 0x03, invalidSequence = 0x04
        case channelBusy = 0x06, invalidChannel = 0x0B, other = 0x7F
    }

    private struct Assembly {
        let channel: UInt32
        let command: UInt8
        let length: Int
        var data: Data
        var nextSequence: UInt8
    }

    private let responder: CTAP2Responder
    private let lock = NSLock()
    private var channels: Set<UInt32> = []
    private var nextChannel: UInt32 = 1
    private var assembly: Assembly?
    private var outgoing: [Data] = []
    private var waiting = false
    private var pending: (channel: UInt32, message: Data)?

    /// A device whose CBOR commands `responder` answers.
    public init(responder: CTAP2Responder) {
        self.responder = responder
    }

    /// Takes one report from the host (64 bytes; shorter ones are padded, longer ones cut).
    public func write(_ report: Data) {
        var packet = Data(report.prefix(Self.reportSize))
        packet.append(Data(count: Self.reportSize - packet.count))
        lock.withLock { receive(packet) }
    }

    /// The next report for the host, if one is waiting.
    public func read() -> Data? {
        lock.withLock { outgoing.isEmpty ? nil : outgoing.removeFirst() }
    }

    /// Whether commands that need a person wait for ``touch()`` (false: they are answered at once).
    public var waitsForTouch: Bool {
        get { lock.withLock { waiting } }
        set { lock.withLock { waiting = newValue } }
    }

    /// Whether a command waits for a touch now (the key would be blinking).
    public var isAwaitingTouch: Bool { lock.withLock { pending != nil } }

    /// A person touches the key: the waiting command is answered. Nothing happens when none waits.
    public func touch() {
        lock.withLock {
            guard let (channel, message) = pending else { return }
            pending = nil
            send(.cbor, responder.respond(to: message), on: channel)
        }
    }

    private func receive(_ packet: Data) {
        let channel = packet.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let kind = packet[4]
        if kind & 0x80 != 0 {
            let length = Int(packet[5]) << 8 | Int(packet[6])
            if kind == Command.initialize.rawValue, assembly?.channel == channel { assembly = nil }  // INIT aborts a transaction
            if let busy = assembly, busy.channel != channel { return send(.channelBusy, on: channel) }
            guard length <= Self.maximumMessageSize else { return send(.invalidLength, on: channel) }
            assembly = Assembly(channel: channel, command: kind, length: length, data: Data(packet[7..<min(7 + length, Self.reportSize)]),
                                nextSequence: 0)
        } else {
            guard var current = assembly, current.channel == channel else { return }  // a stray continuation is ignored (§11.2.4)
            guard kind == current.nextSequence else {
                assembly = nil
                return send(.invalidSequence, on: channel)
            }
            current.data.append(packet[5..<min(5 + current.length - current.data.count, Self.reportSize)])
            current.nextSequence += 1
            assembly = current
        }
        guard let complete = assembly, complete.data.count >= complete.length else { return }
        assembly = nil
        handle(complete)
    }

    private func handle(_ message: Assembly) {
        let (channel, data) = (message.channel, message.data)
        guard let command = Command(rawValue: message.command) else { return send(.invalidCommand, on: channel) }
        if command == .initialize {
            guard data.count == 8 else { return send(.invalidLength, on: channel) }
            var assigned = channel
            if channel == Self.broadcastChannel {
                assigned = nextChannel
                nextChannel = nextChannel % 0xFFFF_FFFE + 1
                channels.insert(assigned)
            }
            // nonce, channel, CTAPHID version 2, device version 1.0.0, capabilities WINK | CBOR | NMSG
            let answer = data + bigEndian(assigned) + Data([2, 1, 0, 0, 0x01 | 0x04 | 0x08])
            return send(.initialize, answer, on: channel)
        }
        guard channel != Self.broadcastChannel, channel != 0, channels.contains(channel) else { return send(.invalidChannel, on: channel) }
        switch command {
        case .ping: send(.ping, data, on: channel)
        case .wink: send(.wink, Data(), on: channel)
        case .cancel:  // CANCEL itself has no answer; the command it cancels is answered with KEEPALIVE_CANCEL
            if pending?.channel == channel {
                pending = nil
                send(.cbor, Data([0x2D]), on: channel)
            }
        case .cbor:
            if waiting, let first = data.first, [CTAP2Responder.Command.makeCredential, .getAssertion, .selection].map(\.rawValue).contains(first) {
                pending = (channel, data)
            } else {
                send(.cbor, responder.respond(to: data), on: channel)
            }
        case .lock: send(.lock, Data(), on: channel)
        case .message, .initialize, .keepAlive, .error: send(.invalidCommand, on: channel)
        }
    }

    private func send(_ failure: Failure, on channel: UInt32) {
        send(.error, Data([failure.rawValue]), on: channel)
    }

    /// Splits `payload` into an init packet and continuation packets on `channel`.
    private func send(_ command: Command, _ payload: Data, on channel: UInt32) {
        let header = bigEndian(channel)
        var packet = header + Data([command.rawValue, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]) + payload.prefix(57)
        var rest = payload.dropFirst(57)
        var sequence: UInt8 = 0
        while true {
            packet.append(Data(count: Self.reportSize - packet.count))
            outgoing.append(packet)
            guard !rest.isEmpty else { return }
            packet = header + Data([sequence]) + rest.prefix(59)
            rest = rest.dropFirst(59)
            sequence += 1
        }
    }

    private func bigEndian(_ value: UInt32) -> Data {
        Data([24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) })
    }
}
