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
        webkit_web_view_evaluate_javascript(view, script, -1, world, nil, nil, { source, result, data in
            JavaScriptBridge.deliver(Result { () throws(GLibError) in
                try GLibError.attempt { webkit_web_view_evaluate_javascript_finish(cwk_web_view_from_object(source), result, $0) }
            }, to: data)
        }, RetainedValue.retained(completion))
    }

    /// Runs `body` as the body of an async function (it may `await` and `return`).
    static func callAsyncFunction(_ body: String, in view: UnsafeMutablePointer<WebKitWebView>, world: String?,
                                  completion: @escaping Completion) {
        webkit_web_view_call_async_javascript_function(view, body, -1, nil, world, nil, nil, { source, result, data in
            JavaScriptBridge.deliver(Result { () throws(GLibError) in
                try GLibError.attempt { webkit_web_view_call_async_javascript_function_finish(cwk_web_view_from_object(source), result, $0) }
            }, to: data)
        }, RetainedValue.retained(completion))
    }

    /// Converts a finished call's value (owned by the caller) to JSON and hands it to the
    /// completion in `data`, which is released.
    private nonisolated static func deliver(_ finished: Result<UnsafeMutablePointer<JSCValue>?, GLibError>,
                                            to data: UnsafeMutableRawPointer?) {
        guard let completion = RetainedValue<Completion>.take(data) else { return }
        let result: Result<JSONValue, PageScriptError>
        switch finished {
        case .success(let value?):
            let json = GObjectReference(adopting: value).withPointer { jsc_value_to_json($0, 0) }
            defer { g_free(json) }
            let text = json.map { String(cString: $0) } ?? "null"
            result = (try? JSONValue(parsing: text)).map { .success($0) } ?? .failure(.scriptFailed(message: "result is not JSON"))
        case .success(nil):
            result = .failure(.scriptFailed(message: "unknown error"))
        case .failure(let error):
            result = .failure(.scriptFailed(message: error.message))
        }
        WebKitActor.assumeIsolated { completion(result) }
    }
}
