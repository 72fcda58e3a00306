import CWebKitGTK
import Foundation
import OpenIDConnect
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

    /// Clicks the middle of the page's element `selector` with the mouse, and returns once the
    /// page has seen the click, unless the click `leavesPage` (a submit: the caller waits for the
    /// next page instead). WebKit hands mouse and key events to the page on queues of their own,
    /// so keys typed right after xdotool's click could reach the page before the click had moved
    /// the focus, and went nowhere.
    nonisolated func click(_ selector: String, in session: WebAuthenticationSession, leavesPage: Bool = false) async throws {
        await Self.raise(session)
        // As a person waits to see the element: the page has loaded (style sheets, images), the
        // element is there (a page's script may render it later) and enabled, and its box is the
        // same in two frames in a row; the point comes from it.
        try await session.waitForElement(try await Self.mark(when: { mark in
            """
            let last = null;
            const frame = () => {
              const element = document.querySelector(\(JSONValue.string(selector)));
              if (!element) { last = null; requestAnimationFrame(frame); return; }
              const r = element.getBoundingClientRect();
              const box = [r.x, r.y, r.width, r.height].join();
              if (box === last && !element.disabled) \(mark); else { last = box; requestAnimationFrame(frame); }
            };
            if (document.readyState === 'complete') requestAnimationFrame(frame);
            else addEventListener('load', () => requestAnimationFrame(frame), { once: true });
            """
        }, in: session))
        let point = try await XInput.screenPoint(of: selector, in: session)
        let seen = leavesPage ? nil : try await Self.mark(afterSeeing: 1, "click", on: selector, in: session)
        try await XInput.click(x: point.x, y: point.y)
        if let seen { try await session.waitForElement(seen) }
    }

    /// Types `text` on the keyboard into the session's window, and returns once the page has seen
    /// the release of every key (so that a click after it cannot overtake them).
    nonisolated func type(_ text: String, in session: WebAuthenticationSession) async throws {
        await Self.raise(session)
        let seen = try await Self.mark(afterSeeing: text.count, "keyup", in: session)
        try await XInput.type(text)
        try await session.waitForElement(seen)
    }

    /// Presses `key` (an X keysym name: Tab, Return) in the session's window. It does not wait
    /// for the page: Return submits, and the caller waits for the next page.
    nonisolated func press(_ key: String, in session: WebAuthenticationSession) async throws {
        await Self.raise(session)
        try await XInput.key(key)
    }

    /// Raises the session's window and gives it the keyboard focus, as a person's click on it
    /// would (with no window manager, GTK sets the X input focus itself), and returns once the X
    /// server has done so. Not by its title: the page's title, which the window shows, can come
    /// after any title a test gives it, and a search for that one then never ends.
    private static func raise(_ session: WebAuthenticationSession) async {
        await Task { @WebKitActor in
            if let window = session.page?.window { gtk_window_present(cwk_window(window)) }
            gdk_display_sync(gdk_display_get_default())
        }.value
    }

    /// Arms a mark on the page's root element that a listener there sets once the page has seen
    /// `count` trusted `type` events, on the element `selector` (or in it) if one is given (the
    /// release of a modifier key is not counted: xdotool presses Shift for a capital); returns the
    /// selector that matches the mark then.
    private static func mark(afterSeeing count: Int, _ type: String, on selector: String? = nil,
                             in session: WebAuthenticationSession) async throws -> String {
        let target = selector.map { "document.querySelector(\(JSONValue.string($0)))" } ?? "null"
        return try await mark(when: { mark in
            """
            const target = \(target);
            let seen = 0;
            const listener = (event) => {
              if (!event.isTrusted || ['Shift', 'Control', 'Alt', 'Meta'].includes(event.key)) return;
              if ((target && !target.contains(event.target)) || ++seen < \(count)) return;
              removeEventListener('\(type)', listener, true);
              \(mark);
            };
            addEventListener('\(type)', listener, true);
            """
        }, in: session)
    }

    /// Runs `arming` (JavaScript, given the statement that sets the mark) in the engine's isolated
    /// world of the page; returns the selector that matches the page's root element once it is set.
    private static func mark(when arming: (_ mark: String) -> String, in session: WebAuthenticationSession) async throws -> String {
        let name = "data-person-\(UUID().uuidString.prefix(8).lowercased())"
        _ = try await session.evaluateInIsolatedWorld("(() => { \(arming("document.documentElement.setAttribute('\(name)', '')")) })(); null",
                                                      timeout: .seconds(10))
        return "html[\(name)]"
    }
}
