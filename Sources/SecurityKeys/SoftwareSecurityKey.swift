import Foundation
import WebAuthn

/// A FIDO2 security key in software: a ``CTAPHIDDevice`` answered by a ``VirtualAuthenticator``,
/// reached by libfido2 through its custom I/O (``SecurityKeySource/software(_:)``) where no
/// `/dev/uhid` lets a software key be plugged in as a USB device. Like a real key it waits to be
/// touched (``touch()``), and it can be pulled out (``unplug()``): libfido2's path is then the
/// one a real key takes, its CTAPHID framing included. For tests and demonstrations.
public final class SoftwareSecurityKey: @unchecked Sendable {
    // @unchecked: `plugged` and `touchWaiters` are read and written only while `condition` is locked.
    /// The authenticator behind the key.
    public let authenticator: VirtualAuthenticator
    let device: CTAPHIDDevice
    private let condition = NSCondition()
    private var plugged = true
    private var touchWaiters: [CheckedContinuation<Void, Never>] = []

    /// The key's PIN protocol, when it has a PIN.
    public let clientPIN: CTAP2ClientPIN?

    /// A key whose authenticator behaves as `settings` say; it waits for ``touch()`` unless
    /// `alwaysTouched`. With a `pin`, the key verifies its user by that PIN only (no built-in
    /// verification), as most USB keys do.
    /// - Throws: ``VirtualCredentialFileError`` for a credentials file that cannot be used.
    public init(settings: VirtualAuthenticatorSettings = VirtualAuthenticatorSettings(), pin: String? = nil,
                alwaysTouched: Bool = false) throws(VirtualCredentialFileError) {
        var settings = settings
        if pin != nil { settings.userVerification = false }
        authenticator = try VirtualAuthenticator(settings: settings)
        clientPIN = pin.map(CTAP2ClientPIN.init(pin:))
        device = CTAPHIDDevice(responder: CTAP2Responder(authenticator: authenticator, clientPIN: clientPIN))
        device.waitsForTouch = !alwaysTouched
    }

    /// A person touches the key: the command waiting for it is answered.
    public func touch() {
        condition.withLock {
            device.touch()
            condition.broadcast()
        }
    }

    /// The key is pulled out: every read and write fails from now on.
    public func unplug() {
        condition.withLock {
            plugged = false
            condition.broadcast()
        }
    }

    /// Returns once a command waits for a touch (at once if one does).
    public func awaitingTouch() async {
        await withCheckedContinuation { continuation in
            condition.withLock {
                if device.isAwaitingTouch { continuation.resume() } else { touchWaiters.append(continuation) }
            }
        }
    }

    /// Takes a HID report from the host; false once unplugged.
    func write(_ report: Data) -> Bool {
        condition.withLock {
            guard plugged else { return false }
            device.write(report)
            if device.isAwaitingTouch {
                for waiter in touchWaiters { waiter.resume() }
                touchWaiters = []
            }
            condition.broadcast()
            return true
        }
    }

    /// The next report for the host, waiting up to `milliseconds` (negative: as long as it takes)
    /// for one; nil on timeout or once unplugged.
    func read(milliseconds: Int) -> Data? {
        let deadline = milliseconds < 0 ? nil : Date(timeIntervalSinceNow: Double(milliseconds) / 1000)
        return condition.withLock {
            while plugged {
                if let report = device.read() { return report }
                if let deadline {
                    guard condition.wait(until: deadline) else { return nil }
                } else {
                    condition.wait()
                }
            }
            return nil
        }
    }
}
