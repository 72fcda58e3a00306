import Foundation
internal import CWebKitGTK

/// Screenshots: the page rendered by WebKit's snapshot API (it works off screen too), or the
/// whole window as a person sees it: GTK draws the window's widgets as they are now, and
/// WebKit's rendering of the page is laid where the view is.
@WebKitActor
enum PageSnapshot {
    typealias Completion = @WebKitActor (Result<Data, PageScriptError>) -> Void

    /// The visible part of `view`'s page; with `window`, the whole window around it, and
    /// `overlay` (a kiosk's idle warning) drawn over the page. As PNG.
    static func png(of view: UnsafeMutablePointer<WebKitWebView>, in window: UnsafeMutablePointer<GtkWidget>?,
                    overlay: UnsafeMutablePointer<GtkWidget>? = nil, completion: @escaping Completion) {
        let rendered: SurfaceCompletion = { result in
            completion(result.flatMap { surface in
                defer { cairo_surface_destroy(surface) }
                guard let window, let composed = compose(page: surface, view: view, window: window, overlay: overlay) else {
                    return encode(surface)
                }
                defer { cairo_surface_destroy(composed) }
                return encode(composed)
            })
        }
        webkit_web_view_get_snapshot(view, WEBKIT_SNAPSHOT_REGION_VISIBLE, WEBKIT_SNAPSHOT_OPTIONS_NONE, nil, { source, result, data in
            PageSnapshot.finish(source: source, result: result, data: data)
        }, RetainedValue.retained(rendered))
    }

    private typealias SurfaceCompletion = @WebKitActor (Result<OpaquePointer, PageScriptError>) -> Void

    private nonisolated static func finish(source: UnsafeMutablePointer<GObject>?, result: OpaquePointer?, data: UnsafeMutableRawPointer?) {
        guard let completion = RetainedValue<SurfaceCompletion>.take(data) else { return }
        let snapshot = Result { () throws(GLibError) in
            try GLibError.attempt { webkit_web_view_get_snapshot_finish(cwk_web_view_from_object(source), result, $0) }
        }
        // The surface is handed over whole: nothing else holds it.
        nonisolated(unsafe) let rendered: Result<OpaquePointer, PageScriptError> = switch snapshot {
        case .success(let surface?): .success(surface)
        case .success(nil): .failure(.scriptFailed(message: "snapshot failed: unknown error"))
        case .failure(let error): .failure(.scriptFailed(message: "snapshot failed: \(error.message)"))
        }
        WebKitActor.assumeIsolated { completion(rendered) }
    }

    /// The window drawn by GTK as it is now (header bar, progress, borders), with `page` painted
    /// where the view is and a visible `overlay` drawn again over it; `nil` when the window is not on screen.
    private static func compose(page: OpaquePointer, view: UnsafeMutablePointer<WebKitWebView>,
                                window: UnsafeMutablePointer<GtkWidget>, overlay: UnsafeMutablePointer<GtkWidget>?) -> OpaquePointer? {
        guard gtk_widget_get_mapped(window) != 0 else { return nil }
        // A header that just changed (title, host, progress) waits for the next frame to be laid
        // out, and GTK refuses to draw a widget in that state: lay it out now.
        gtk_container_check_resize(cwk_container(window))
        var (x, y): (gint, gint) = (0, 0)
        guard gtk_widget_translate_coordinates(cwk_web_view_widget(view), window, 0, 0, &x, &y) != 0 else { return nil }
        let frame = frame(of: window)
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, frame.width, frame.height)!
        let cairo = cairo_create(surface)!
        defer { cairo_destroy(cairo) }
        cairo_translate(cairo, Double(-frame.x), Double(-frame.y))
        gtk_widget_draw(window, cairo)
        // Only where the view is now: a kiosk's touch keyboard may just have taken the bottom of it.
        cairo_save(cairo)
        cairo_rectangle(cairo, Double(x), Double(y), Double(gtk_widget_get_allocated_width(cwk_web_view_widget(view))),
                        Double(gtk_widget_get_allocated_height(cwk_web_view_widget(view))))
        cairo_clip(cairo)
        cairo_set_source_surface(cairo, page, Double(x), Double(y))
        cairo_paint(cairo)
        cairo_restore(cairo)
        var (overlayX, overlayY): (gint, gint) = (0, 0)
        if let overlay, gtk_widget_get_visible(overlay) != 0,
           gtk_widget_translate_coordinates(overlay, window, 0, 0, &overlayX, &overlayY) != 0 {
            cairo_translate(cairo, Double(overlayX), Double(overlayY))
            gtk_widget_draw(overlay, cairo)
        }
        return surface
    }

    /// The part of `window` a person sees as the window, in its coordinates. Under a compositor
    /// (Wayland, a composited X11 desktop) GTK draws a transparent shadow around a window with a
    /// header bar, inside the window's allocation: then only the header bar and the content.
    private static func frame(of window: UnsafeMutablePointer<GtkWidget>) -> GdkRectangle {
        let whole = GdkRectangle(x: 0, y: 0, width: gtk_widget_get_allocated_width(window),
                                 height: gtk_widget_get_allocated_height(window))
        guard gdk_screen_is_composited(gtk_widget_get_screen(window)) != 0 else { return whole }
        let parts = [gtk_window_get_titlebar(cwk_window(window)), gtk_bin_get_child(cwk_bin(window))]
            .compactMap { $0 }.filter { gtk_widget_get_visible($0) != 0 }
        var (left, top, right, bottom) = (whole.width, whole.height, gint(0), gint(0))
        for part in parts {
            var (x, y): (gint, gint) = (0, 0)
            guard gtk_widget_translate_coordinates(part, window, 0, 0, &x, &y) != 0 else { return whole }
            (left, top) = (min(left, x), min(top, y))
            (right, bottom) = (max(right, x + gtk_widget_get_allocated_width(part)), max(bottom, y + gtk_widget_get_allocated_height(part)))
        }
        guard right > left, bottom > top else { return whole }
        return GdkRectangle(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// A cairo image surface as PNG bytes.
    private nonisolated static func encode(_ surface: OpaquePointer) -> Result<Data, PageScriptError> {
        let sink = PNGSink()
        let closure = RetainedValue.retained(sink)
        defer { RetainedBox.release(closure) }
        let status = cairo_surface_write_to_png_stream(surface, { closure, bytes, length in
            guard let sink = RetainedValue<PNGSink>.borrow(closure), let bytes else { return CAIRO_STATUS_WRITE_ERROR }
            sink.data.append(bytes, count: Int(length))
            return CAIRO_STATUS_SUCCESS
        }, closure)
        guard status == CAIRO_STATUS_SUCCESS else { return .failure(.scriptFailed(message: "PNG encoding failed")) }
        return .success(sink.data)
    }

    private final class PNGSink {
        var data = Data()
    }
}
