import Foundation
internal import CWebKitGTK

/// Renders what a web view shows into a PNG, with WebKit's snapshot API (it works off screen too).
@WebKitActor
enum PageSnapshot {
    typealias Completion = @WebKitActor (Result<Data, PageScriptError>) -> Void

    /// The visible part of `view`'s page, as PNG.
    static func png(of view: UnsafeMutablePointer<WebKitWebView>, completion: @escaping Completion) {
        let box = Unmanaged.passRetained(CompletionBox(completion)).toOpaque()
        webkit_web_view_get_snapshot(view, WEBKIT_SNAPSHOT_REGION_VISIBLE, WEBKIT_SNAPSHOT_OPTIONS_NONE, nil, { source, result, data in
            PageSnapshot.finish(source: source, result: result, data: data)
        }, box)
    }

    private nonisolated static func finish(source: UnsafeMutablePointer<GObject>?, result: OpaquePointer?, data: UnsafeMutableRawPointer?) {
        var error: UnsafeMutablePointer<GError>?
        let surface = webkit_web_view_get_snapshot_finish(cwk_web_view_from_object(source), result, &error)
        let box = Unmanaged<CompletionBox>.fromOpaque(data!).takeRetainedValue()
        let outcome: Result<Data, PageScriptError>
        if let surface {
            outcome = encode(surface)
            cairo_surface_destroy(surface)
        } else {
            outcome = .failure(.scriptFailed(message: "snapshot failed: " + (error.map { String(cString: $0.pointee.message) } ?? "unknown error")))
        }
        if let error { g_error_free(error) }
        WebKitActor.assumeIsolated { box.completion(outcome) }
    }

    /// A cairo image surface as PNG bytes.
    nonisolated static func encode(_ surface: OpaquePointer) -> Result<Data, PageScriptError> {
        let sink = PNGSink()
        let status = cairo_surface_write_to_png_stream(surface, { closure, bytes, length in
            guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<PNGSink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(sink).toOpaque())
        guard status == CAIRO_STATUS_SUCCESS else { return .failure(.scriptFailed(message: "PNG encoding failed")) }
        return .success(sink.data)
    }

    private final class PNGSink {
        var data = Data()
    }

    private final class CompletionBox: Sendable {
        let completion: Completion
        init(_ completion: @escaping Completion) { self.completion = completion }
    }
}
