internal import CGDBus
import Foundation
import GLibLifetimes

/// One `SignIn` of the broker running on the session bus, followed to its `Response`, with nothing
/// but GIO: how `webauth login` signs in through a running broker. It never starts a broker
/// (`G_DBUS_CALL_FLAGS_NO_AUTO_START`). It subscribes to the request's `Response` and to the
/// broker's name before it calls, as the contract asks, on a thread and main context of its own.
public enum BrokerSignInCall {
    /// How the request ended.
    public enum Answer: Sendable, Equatable {
        /// The request's `Response`: its code (0 success, 1 cancelled by the person, 2 failed) and results.
        case response(UInt32, results: [String: BusValue])
        /// The call itself failed with an error of the contract (before any request began).
        case refused(BrokerErrorName, message: String)
        /// The broker's name lost its owner before the `Response`.
        case brokerLeft
        /// No `Response` within the time given; the request was closed.
        case timedOut
        /// The task was cancelled; the request was closed (its window with it).
        case cancelled
        /// No broker to ask: no session bus, no broker on it, or one that does not know the call.
        case noBroker
        /// The broker has no display for the window (`CanShowWindows` is false); nothing was asked.
        case cannotShowWindows
    }

    /// Signs in with `options` (`SignIn`'s `a{sv}`, without `handle_token`: one is made here) in a
    /// window transient for `parentWindow`, waiting at most `timeout` for the `Response`; first asks
    /// whether the broker can show that window at all (`CanShowWindows`).
    /// Cancelling the task closes the request (`Close`), so the broker closes its window.
    /// - Parameter environment: where the session bus is (``SessionBus``).
    public static func signIn(parentWindow: String, options: [String: BusValue], environment: [String: String], timeout: Duration) async -> Answer {
        guard let connection = BrokerClientConnection(environment: environment) else { return .noBroker }
        switch connection.property(BrokerContract.canShowWindowsProperty, timeoutMilliseconds: 5_000) {
        case .reply([.boolean(false)]): return .cannotShowWindows
        case .reply, .refused: break  // a broker that does not say: its SignIn will
        case .timedOut: return .timedOut
        case .noBroker: return .noBroker
        }
        let wait = ResponseWait(connection: connection, token: "webauth_login_\(getpid())")
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Answer, Never>) in
                let thread = Thread { continuation.resume(returning: wait.run(parentWindow: parentWindow, options: options, timeout: timeout)) }
                thread.name = "webauth-broker-sign-in"
                thread.start()
            }
        } onCancel: {
            wait.cancel()
        }
    }
}

/// The waiting side of one ``BrokerSignInCall``: its main context, the request's handle, and the
/// answer once one came. @unchecked Sendable: ``run(parentWindow:options:timeout:)`` and the
/// callbacks run on the call's thread; ``cancel()`` only hands a source to its context, which
/// GLib documents as thread-safe.
private final class ResponseWait: @unchecked Sendable {
    private let connection: BrokerClientConnection
    private let token: String
    private let context: OpaquePointer
    private let loop: OpaquePointer
    private var answer: BrokerSignInCall.Answer?

    init(connection: BrokerClientConnection, token: String) {
        self.connection = connection
        self.token = token
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)
    }

    deinit {
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }

    /// The request's object path: `PREFIX/SENDER/TOKEN`, SENDER the unique name without ":" and with "." as "_".
    private var handle: String {
        BrokerContract.requestPathPrefix + "/" + connection.uniqueName.dropFirst().replacingOccurrences(of: ".", with: "_") + "/" + token
    }

    /// Subscribes, calls `SignIn` and iterates the context until the request ends.
    func run(parentWindow: String, options: [String: BusValue], timeout: Duration) -> BrokerSignInCall.Answer {
        g_main_context_push_thread_default(context)
        defer { g_main_context_pop_thread_default(context) }
        let handle = handle
        let subscriptions = connection.connection.withPointer { bus in
            [g_dbus_connection_signal_subscribe(bus, BrokerContract.busName, BrokerContract.requestInterface, BrokerContract.responseSignal, handle,
                                                nil, G_DBUS_SIGNAL_FLAGS_NONE, { _, _, _, _, _, parameters, data in
                                                    guard let wait = RetainedValue<ResponseWait>.borrow(data), let parameters else { return }
                                                    wait.heard(BusValue.values(ofTuple: parameters))
                                                }, RetainedValue.retained(self), RetainedBox.destroyNotify),
             g_dbus_connection_signal_subscribe(bus, "org.freedesktop.DBus", "org.freedesktop.DBus", "NameOwnerChanged", "/org/freedesktop/DBus",
                                                BrokerContract.busName, G_DBUS_SIGNAL_FLAGS_NONE, { _, _, _, _, _, parameters, data in
                                                    guard let wait = RetainedValue<ResponseWait>.borrow(data), let parameters,
                                                          case .string("")? = BusValue.values(ofTuple: parameters).last else { return }
                                                    wait.finish(.brokerLeft)
                                                }, RetainedValue.retained(self), RetainedBox.destroyNotify)]
        }
        defer {
            connection.connection.withPointer { bus in subscriptions.forEach { g_dbus_connection_signal_unsubscribe(bus, $0) } }
            // GDBus frees a subscription's user data from this context: iterate it until nothing is pending, or the boxes leak.
            while g_main_context_iteration(context, 0) != 0 {}
        }
        var request = options
        request["handle_token"] = .string(token)
        switch connection.call("SignIn", [.string(parentWindow), .dictionary(request)], timeoutMilliseconds: 25_000) {
        case .reply: break
        case .refused(let name, let message): return .refused(name, message: message)
        case .timedOut: return .timedOut
        case .noBroker: return .noBroker
        }
        let seconds = UInt32(clamping: timeout.components.seconds + 10)  // the broker ends the request at `timeout`; this only guards against a broker that hangs
        let timer = g_timeout_source_new_seconds(seconds)!
        g_source_set_callback(timer, { data in
            RetainedValue<ResponseWait>.borrow(data)?.finish(.timedOut)
            return 0
        }, RetainedValue.retained(self), RetainedBox.destroyNotify)
        g_source_attach(timer, context)
        defer {
            g_source_destroy(timer)
            g_source_unref(timer)
        }
        if answer == nil { g_main_loop_run(loop) }
        let answer = answer ?? .cancelled
        if [.timedOut, .cancelled].contains(answer) { _ = connection.call("Close", [], interface: BrokerContract.requestInterface, path: handle, timeoutMilliseconds: 5_000) }
        return answer
    }

    /// Ends the wait as cancelled, from any thread: the request is then closed. An idle source, never
    /// `g_main_context_invoke`, which runs its function at once on a thread that can take the context.
    func cancel() {
        let idle = g_idle_source_new()!
        g_source_set_callback(idle, { data in
            RetainedValue<ResponseWait>.borrow(data)?.finish(.cancelled)
            return 0
        }, RetainedValue.retained(self), RetainedBox.destroyNotify)
        g_source_attach(idle, context)
        g_source_unref(idle)
    }

    /// The `Response`'s arguments: `(u a{sv})`.
    private func heard(_ values: [BusValue]) {
        guard values.count == 2, case .uint32(let code) = values[0], case .dictionary(let results) = values[1] else { return }
        finish(.response(code, results: results))
    }

    /// Keeps the first answer and stops the loop.
    private func finish(_ outcome: BrokerSignInCall.Answer) {
        if answer == nil { answer = outcome }
        g_main_loop_quit(loop)
    }
}
