import OpenIDConnect
internal import CWebKitGTK

/// Runs JavaScript in a web view and converts the result to ``JSONValue``.
@WebKitActor
enum JavaScriptBridge {
    typealias Completion = @WebKitActor (Result<JSONValue, PageScriptError>) -> Void

    /// The isolated script world of the engine's own helpers: they share the page's DOM but
    /// not its JavaScript globals, so a page cannot tamper with them.
    static let helperWorld = "webauthsession"

    /// Evaluates `script` (an expression or statements; the last value is the result).
    static func evaluate(_ script: String, in view: UnsafeMutablePointer<WebKitWebView>, world: String?,
                         completion: @escaping Completion) {
        let box = Unmanaged.passRetained(CompletionBox(completion)).toOpaque()
        webkit_web_view_evaluate_javascript(view, script, -1, world, nil, nil, { source, result, data in
            var error: UnsafeMutablePointer<GError>?
            let value = webkit_web_view_evaluate_javascript_finish(cwk_web_view_from_object(source), result, &error)
            JavaScriptBridge.deliver(value: value, error: error, to: data)
        }, box)
    }

    /// Runs `body` as the body of an async function (it may `await` and `return`).
    static func callAsyncFunction(_ body: String, in view: UnsafeMutablePointer<WebKitWebView>, world: String?,
                                  completion: @escaping Completion) {
        let box = Unmanaged.passRetained(CompletionBox(completion)).toOpaque()
        webkit_web_view_call_async_javascript_function(view, body, -1, nil, world, nil, nil, { source, result, data in
            var error: UnsafeMutablePointer<GError>?
            let value = webkit_web_view_call_async_javascript_function_finish(cwk_web_view_from_object(source), result, &error)
            JavaScriptBridge.deliver(value: value, error: error, to: data)
        }, box)
    }

    private nonisolated static func deliver(value: UnsafeMutablePointer<JSCValue>?, error: UnsafeMutablePointer<GError>?,
                                            to data: UnsafeMutableRawPointer?) {
        let box = Unmanaged<CompletionBox>.fromOpaque(data!).takeRetainedValue()
        let result: Result<JSONValue, PageScriptError>
        if let value {
            let json = jsc_value_to_json(value, 0)
            defer { g_free(json) }
            let text = json.map { String(cString: $0) } ?? "null"
            g_object_unref(UnsafeMutableRawPointer(value))
            result = (try? JSONValue(parsing: text)).map { .success($0) } ?? .failure(.scriptFailed(message: "result is not JSON"))
        } else {
            result = .failure(.scriptFailed(message: error.map { String(cString: $0.pointee.message) } ?? "unknown error"))
        }
        if let error { g_error_free(error) }
        WebKitActor.assumeIsolated { box.completion(result) }
    }

    private final class CompletionBox: Sendable {
        let completion: Completion
        init(_ completion: @escaping Completion) { self.completion = completion }
    }
}
