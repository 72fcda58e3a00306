internal import CWebKitGTK

/// The reply to one script message a page posted with a reply (`postMessage` returned it a
/// promise): held, answered once with a string, released when this is. Unanswered, WebKit
/// settles the page's promise with `undefined` when the last reference goes, so a page never
/// waits on a reply the engine dropped. The JavaScript context of the message is kept with it:
/// the answer is a value made in it.
@WebKitActor
final class ScriptMessageReply {
    // nonisolated(unsafe): both are set once, by the init in the signal handler on the GLib
    // thread, and used after that only by `answer` and deinit, which are WebKitActor-isolated.
    nonisolated(unsafe) private let reply: OpaquePointer
    nonisolated(unsafe) private let context: GObjectReference<UnsafeMutablePointer<JSCContext>>
    private var answered = false

    /// Holds `reply` to the message `value` (both the signal's, borrowed), in the signal's handler.
    nonisolated init(_ reply: OpaquePointer, to value: UnsafeMutablePointer<JSCValue>) {
        self.reply = webkit_script_message_reply_ref(reply)
        context = GObjectReference(retaining: jsc_value_get_context(value))
    }

    isolated deinit {
        webkit_script_message_reply_unref(reply)
    }

    /// Settles the page's promise with `text`; later answers are ignored.
    func answer(_ text: String) {
        guard !answered else { return }
        answered = true
        let value = GObjectReference(adopting: jsc_value_new_string(context.pointer, text)!)
        webkit_script_message_reply_return_value(reply, value.pointer)
    }
}
