internal import CWebKitGTK

/// The user data of every GObject signal handler a page connects: a retained box holding a
/// weak reference to the page. Each connection retains the box once and GLib's destroy notify
/// releases it, so a handler that fires during teardown finds `nil`, never a freed page.
@WebKitActor
final class SignalTarget {
    weak var page: SignInPage?

    init(_ page: SignInPage) {
        self.page = page
    }

    /// One retain, for one connection.
    nonisolated func retainedPointer() -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(self).toOpaque()
    }

    /// The destroy notify that balances ``retainedPointer()``.
    static let release: GClosureNotify = { data, _ in
        guard let data else { return }
        Unmanaged<SignalTarget>.fromOpaque(data).release()
    }

    /// The target behind a handler's user data (callable from the C callback itself).
    nonisolated static func from(_ data: UnsafeMutableRawPointer?) -> SignalTarget? {
        data.map { Unmanaged<SignalTarget>.fromOpaque($0).takeUnretainedValue() }
    }
}
