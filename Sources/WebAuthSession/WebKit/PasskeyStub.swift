import Foundation
import OpenIDConnect
internal import CWebKitGTK

/// WebKitGTK 2.50 has no WebAuthn: `navigator.credentials` is undefined, so a provider's passkey
/// or security-key prompt throws inside the page and the sign-in waits for nothing. This stub,
/// installed in the page's own world before any page script runs, gives the page a
/// `navigator.credentials` whose `get` and `create` with `publicKey` tell the engine which call it
/// was and for which relying party (nothing else: no challenge, no user, no secret) and return a
/// promise that never settles; the page then ends with ``WebAuthenticationError/passkeyRequested(operation:relyingParty:pageText:)``.
/// A passkey autofill request (`mediation: "conditional"`, made by many login pages as they load)
/// is left pending without a report, and a password credential request resolves to `null`, as
/// in a browser that has none. A WebKit that has WebAuthn keeps its own.
@WebKitActor
enum PasskeyStub {
    /// The script message handler the stub posts to.
    nonisolated static let messageHandler = "webauthsessionPasskey"

    /// The stub (main world, top frame, document start).
    nonisolated static let script = """
        (() => {
            const handler = window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.\(messageHandler);
            if (navigator.credentials || !handler) return;
            const never = () => new Promise(() => {});
            const report = (operation, relyingParty) => {
                handler.postMessage({ operation, relyingParty: typeof relyingParty === 'string' ? relyingParty : '' });
                return never();
            };
            const unsupported = () => Promise.reject(new DOMException('This browser cannot store credentials.', 'NotSupportedError'));
            const credentials = {
                get(options) {
                    const publicKey = options && options.publicKey;
                    if (!publicKey) return Promise.resolve(null);
                    return options.mediation === 'conditional' ? never() : report('get', publicKey.rpId);
                },
                create(options) {
                    const publicKey = options && options.publicKey;
                    return publicKey ? report('create', publicKey.rp && publicKey.rp.id) : unsupported();
                },
                store: unsupported,
                preventSilentAccess: () => Promise.resolve(),
            };
            Object.defineProperty(Navigator.prototype, 'credentials', { configurable: true, enumerable: true, get: () => credentials });
        })();
        """

    /// Installs the stub in `view`'s pages; `page` hears its reports for as long as the returned
    /// connection is kept.
    static func install(in view: UnsafeMutablePointer<WebKitWebView>, reportingTo page: SignInPage) -> SignalConnection {
        PageScriptChannel.install(script, posting: messageHandler, world: nil, in: view) {
            SignalConnection($0, .scriptMessageReceived(messageHandler), target: page, handler: received)
        }
    }

    /// A report from the stub: its operation and relying party, read as JSON.
    private nonisolated static let received: CWKScriptMessageHandler = { _, result, data in
        let page = WeakTarget<SignInPage>.from(data)
        guard let value = result.flatMap({ webkit_javascript_result_get_js_value($0) }) else { return }
        let json = jsc_value_to_json(value, 0)
        defer { g_free(json) }
        let message = json.flatMap { try? JSONValue(parsing: String(cString: $0)) }
        guard let operation = message?["operation"]?.stringValue.flatMap(PasskeyOperation.init(rawValue:)) else { return }
        let named = message?["relyingParty"]?.stringValue ?? ""
        WebKitActor.assumeIsolated { page?.passkeyRequested(operation, relyingParty: named) }
    }

    /// The relying party to name for a request from a page on `host` that named `named`: `named`
    /// if the page may use it (its host or a parent domain of it, as WebAuthn requires), else `host`.
    /// The page chooses what it posts; a message never carries text of the page's choosing.
    nonisolated static func relyingParty(named: String, host: String) -> String {
        let named = named.lowercased()
        let allowed = !named.isEmpty && named.count <= 253 && (named == host || host.hasSuffix("." + named))
        return allowed ? named : host
    }
}

extension SignInPage {
    /// The page asked for a passkey (``PasskeyStub``): the sign-in ends with
    /// ``WebAuthenticationError/passkeyRequested(operation:relyingParty:pageText:)``, quoting the page.
    func passkeyRequested(_ operation: PasskeyOperation, relyingParty named: String) {
        let host = currentURL.flatMap { URLComponents(string: $0)?.host }?.lowercased() ?? ""
        let relyingParty = PasskeyStub.relyingParty(named: named, host: host)
        logger.info("passkey requested", metadata: ["operation": "\(operation.rawValue)", "relying_party": "\(relyingParty)"])
        Task {
            let text = await self.visibleText(timeout: .seconds(5))
            self.fail(.passkeyRequested(operation: operation, relyingParty: relyingParty, pageText: text))
        }
    }
}
