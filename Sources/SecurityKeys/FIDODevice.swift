import Foundation
import OpenIDConnect
import WebAuthSupport
import WebAuthn
internal import CFido2

/// One open libfido2 device (`fido_dev_t`): opened from a ``SecurityKeySource``, used by one
/// request on a thread of its own, cancelled from anywhere, closed and freed when released.
final class FIDODevice: @unchecked Sendable {
    // @unchecked: `device` is used by one request's thread; only `cancel()` comes from another,
    // and libfido2 documents fido_dev_cancel() as safe to call while a request waits.
    let device: OpaquePointer
    private let softwarePath: String?

    /// Opens the key of `source`.
    /// - Throws: ``AuthenticatorError/unavailable(_:)`` when there is none, or it cannot be opened.
    init(_ source: SecurityKeySource) throws(AuthenticatorError) {
        fido_init(0)
        let path: String
        switch source {
        case .system:
            path = try Self.firstKeyPath()
            softwarePath = nil
        case .software(let key):
            path = SoftwareKeyIO.register(key)
            softwarePath = path
        }
        device = fido_dev_new()
        var functions = SoftwareKeyIO.functions
        if softwarePath != nil { fido_dev_set_io_functions(device, &functions) }
        let opened = FIDOStatus(fido_dev_open(device, path))
        guard opened.isOK else {
            var device: OpaquePointer? = device
            fido_dev_free(&device)
            if let softwarePath { SoftwareKeyIO.forget(softwarePath) }
            throw .unavailable("the security key could not be opened: \(opened.message)")
        }
    }

    deinit {
        fido_dev_close(device)
        var device: OpaquePointer? = device
        fido_dev_free(&device)
        if let softwarePath { SoftwareKeyIO.forget(softwarePath) }
    }

    /// Stops the request waiting on the key (the key stops blinking; the request ends with FIDO_ERR_KEEPALIVE_CANCEL).
    func cancel() {
        _ = fido_dev_cancel(device)
    }

    /// The path of the first FIDO2 key among the HID devices.
    private static func firstKeyPath() throws(AuthenticatorError) -> String {
        guard var list = fido_dev_info_new(16) else { throw .unavailable("out of memory") }
        defer {
            var pointer: OpaquePointer? = list
            fido_dev_info_free(&pointer, 16)
            list = pointer ?? list
        }
        var found = 0
        guard FIDOStatus(fido_dev_info_manifest(list, 16, &found)).isOK, found > 0, let first = fido_dev_info_ptr(list, 0),
              let path = fido_dev_info_path(first) else {
            throw .unavailable("no security key is plugged in")
        }
        return String(cString: path)
    }

    /// Runs `body` with the device on a thread of its own (libfido2 blocks while the key waits
    /// for a touch). Cancelling the task cancels the request on the key and returns nil at once:
    /// the caller never waits on a key that does not answer (the thread ends when libfido2 does).
    func run<Result: Sendable>(_ body: @escaping @Sendable (OpaquePointer) -> Result) async -> Result? {
        let waiter = LockedState<CheckedContinuation<Result?, Never>?>(nil)
        let finish: @Sendable (Result?) -> Void = { result in waiter.withLock { $0.take() }?.resume(returning: result) }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiter.withLock { $0 = continuation }
                guard !Task.isCancelled else { return finish(nil) }
                let thread = Thread { finish(body(self.device)) }
                thread.name = "security key"
                thread.start()
            }
        } onCancel: {
            cancel()
            finish(nil)
        }
    }
}
