import CWebKitGTK
import Foundation
@testable import WebAuthSession

/// A person signing in while a ``LoginRecorder`` records: hears the recorder's progress, waits
/// for the page it acts on (the recorder's own "page" message: event-driven), then clicks with
/// the mouse and types on the keyboard through xdotool, as trusted input.
actor RecordingPerson {
    private var seen: [RecordingProgress] = []
    private var waiters: [(predicate: @Sendable (RecordingProgress) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []

    /// The recorder, reporting to this person.
    nonisolated let recorder: LoginRecorder

    init() {
        let stream = AsyncStream<RecordingProgress>.makeStream()
        recorder = LoginRecorder { stream.continuation.yield($0) }
        Task { [weak self] in
            for await progress in stream.stream { await self?.hear(progress) }
        }
    }

    /// What the recorder reported so far.
    var progress: [RecordingProgress] { seen }

    /// Returns once the recorder has reported a page titled `title` (already, or later).
    func waitForPage(titled title: String) async {
        await waitFor { if case .page(_, let shown) = $0 { shown == title } else { false } }
    }

    private func waitFor(_ predicate: @escaping @Sendable (RecordingProgress) -> Bool) async {
        if seen.contains(where: predicate) { return }
        await withCheckedContinuation { waiters.append((predicate, $0)) }
    }

    private func hear(_ progress: RecordingProgress) {
        seen.append(progress)
        let ready = waiters.filter { $0.predicate(progress) }
        waiters.removeAll { $0.predicate(progress) }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Clicks the middle of the page's element `selector` with the mouse, once its window is shown, raised first.
    nonisolated func click(_ selector: String, in session: WebAuthenticationSession) async throws {
        // The first click of a sign-in must not come before its window is on the screen.
        try await XInput.waitUntilShown(window: await XInput.uniqueTitle(for: session))
        await Task { @WebKitActor in
            if let window = session.page?.window { gtk_window_present(cwk_window(window)) }
            gdk_display_sync(gdk_display_get_default())
        }.value
        let point = try await XInput.screenPoint(of: selector, in: session)
        try await XInput.click(x: point.x, y: point.y)
    }

    /// Types `text` on the keyboard into the session's window.
    nonisolated func type(_ text: String, in session: WebAuthenticationSession) async throws {
        try await XInput.type(text, window: await XInput.uniqueTitle(for: session))
    }

    /// Presses `key` (an X keysym name: Tab, Return) in the session's window.
    nonisolated func press(_ key: String, in session: WebAuthenticationSession) async throws {
        try await XInput.key(key, window: await XInput.uniqueTitle(for: session))
    }
}
