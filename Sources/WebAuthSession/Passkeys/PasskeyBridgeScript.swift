/// The engine's half of the page's WebAuthn, in its isolated world of the top frame
/// only: it hears ``PasskeyPageScript``'s request events on the top document, adds the origin
/// of that document as its own world sees it (the page cannot redefine another world's
/// `location`), posts the request to the engine and hands the answer back as an event. Its
/// message handler exists in this world only, so no frame's page script can post to it, and a
/// cross-origin frame cannot reach the top document to ask it.
enum PasskeyBridgeScript {
    /// The script message handler (with reply) the bridge posts to, in ``JavaScriptBridge/helperWorld``.
    static let channel = "webauthsessionPasskey"

    /// The bridge (isolated world, top frame, document start).
    static let source = """
        (() => {
            const handler = window.webkit.messageHandlers.\(channel);
            document.addEventListener('\(PasskeyPageScript.requestEvent)', (event) => {
                let message;
                try { message = JSON.parse(event.detail); } catch (error) { return; }
                if (!message || typeof message !== 'object' || Array.isArray(message)) return;
                message.origin = location.origin;
                handler.postMessage(JSON.stringify(message)).then((answer) => {
                    if (typeof answer === 'string') {
                        document.dispatchEvent(new CustomEvent('\(PasskeyPageScript.answerEvent)', { detail: answer }));
                    }
                }, () => {});
            }, true);
        })();
        """
}
