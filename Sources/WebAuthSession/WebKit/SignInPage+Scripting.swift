import Foundation
import OpenIDConnect

/// What page scripting and login scripts do with a sign-in page, so that they work on the page
/// and never on WebKit: run JavaScript in one of its worlds, press keys, take a screenshot.
/// Each fails with ``PageScriptError/sessionEnded`` once the page is closed.
extension SignInPage {
    /// Where a script runs.
    @WebKitActor
    enum ScriptWorld {
        /// The page's own JavaScript world, with its globals (and the page sees what it does).
        case page
        /// The engine's isolated world: the page's DOM, but not its globals, so the page can
        /// neither tamper with the script nor read what it passes.
        case isolated

        var name: String? { self == .page ? nil : JavaScriptBridge.helperWorld }
    }

    /// Runs `script` (its last expression is the result) in `world`.
    func evaluate(_ script: String, in world: ScriptWorld, completion: @escaping @WebKitActor (Result<JSONValue, PageScriptError>) -> Void) {
        guard let view else { return completion(.failure(.sessionEnded)) }
        JavaScriptBridge.evaluate(script, in: view, world: world.name, completion: completion)
    }

    /// Runs `body` as the body of an async function in `world`; its awaited return value is the result.
    func callAsyncFunction(_ body: String, in world: ScriptWorld,
                           completion: @escaping @WebKitActor (Result<JSONValue, PageScriptError>) -> Void) {
        guard let view else { return completion(.failure(.sessionEnded)) }
        JavaScriptBridge.callAsyncFunction(body, in: view, world: world.name, completion: completion)
    }

    /// Presses `keys` as a person would (trusted events, to the element with focus); returns
    /// false when the page is gone or its view has no window to send keys to.
    func press(_ keys: [PageKeyboard.Key]) -> Bool {
        guard let view else { return false }
        let keyboard = PageKeyboard(view: view)
        return keys.allSatisfy { keyboard.press($0) }
    }

    /// A screenshot as PNG: the visible part of the page or, with `wholeWindow`, the window a
    /// person sees (its header bar or kiosk frame, and a kiosk's idle warning over the page).
    func screenshot(wholeWindow: Bool, completion: @escaping @WebKitActor (Result<Data, PageScriptError>) -> Void) {
        guard let view else { return completion(.failure(.sessionEnded)) }
        let framed = wholeWindow && presentation?.framesPage == true
        PageSnapshot.png(of: view, in: framed ? window : nil, overlay: framed ? presentation?.overlay : nil, completion: completion)
    }
}
