import CWebKitGTK
import Foundation
import TestSupport
@testable import WebAuthSession

/// What a kiosk test looks at in GTK's widgets: a window or widget drawn as it is now, the
/// widgets inside one, and the README's screenshots (saved when `KIOSK_SCREENSHOTS=1`).
@WebKitActor
enum KioskPictures {
    /// `widget` drawn by GTK as it is now, as PNG (a start screen has no page to snapshot).
    static func png(of widget: UnsafeMutablePointer<GtkWidget>) -> Data {
        gtk_container_check_resize(cwk_container(gtk_widget_get_toplevel(widget)))
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, gtk_widget_get_allocated_width(widget),
                                                 gtk_widget_get_allocated_height(widget))!
        defer { cairo_surface_destroy(surface) }
        let cairo = cairo_create(surface)!
        gtk_widget_draw(widget, cairo)
        cairo_destroy(cairo)
        var data = Data()
        withUnsafeMutablePointer(to: &data) { sink in
            _ = cairo_surface_write_to_png_stream(surface, { sink, bytes, length in
                sink!.assumingMemoryBound(to: Data.self).pointee.append(bytes!, count: Int(length))
                return CAIRO_STATUS_SUCCESS
            }, sink)
        }
        return data
    }

    /// Every widget inside `widget`, depth first.
    static func descendants(of widget: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutablePointer<GtkWidget>] {
        guard cwk_is_container(widget) != 0 else { return [] }
        var found: [UnsafeMutablePointer<GtkWidget>] = []
        let children = gtk_container_get_children(cwk_container(widget))
        defer { g_list_free(children) }
        var node = children
        while let current = node {
            let child = current.pointee.data.assumingMemoryBound(to: GtkWidget.self)
            found += [child] + descendants(of: child)
            node = current.pointee.next
        }
        return found
    }

    /// The texts of the labels and buttons inside `widget`.
    static func texts(in widget: UnsafeMutablePointer<GtkWidget>) -> [String] {
        descendants(of: widget).compactMap { child in
            typeName(of: child) == "GtkLabel" ? gtk_label_get_text(cwk_label(child)).map { String(cString: $0) } : nil
        }
    }

    /// The GTK type of `widget` ("GtkLabel"): a widget's name is its type's unless set.
    static func typeName(of widget: UnsafeMutablePointer<GtkWidget>) -> String {
        String(cString: gtk_widget_get_name(widget))
    }

    /// A small PNG logo (a blue square with a white bar), written to a temporary file.
    nonisolated static func logo() -> URL {
        let url = TemporaryFiles.path("kiosk-logo", fileExtension: "png")
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 96, 96)!
        defer { cairo_surface_destroy(surface) }
        let cairo = cairo_create(surface)!
        cairo_set_source_rgb(cairo, 0x0b / 255, 0x5c / 255, 0xad / 255)
        cairo_rectangle(cairo, 0, 0, 96, 96)
        cairo_fill(cairo)
        cairo_set_source_rgb(cairo, 1, 1, 1)
        cairo_rectangle(cairo, 20, 40, 56, 16)
        cairo_fill(cairo)
        cairo_destroy(cairo)
        cairo_surface_write_to_png(surface, url.path)
        return url
    }

    /// Saves `png` as docs/screenshots/`name`.png when `KIOSK_SCREENSHOTS=1` (how the README's were made).
    nonisolated static func saveForReadme(_ png: Data, _ name: String) {
        guard ProcessInfo.processInfo.environment["KIOSK_SCREENSHOTS"] == "1" else { return }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        try? png.write(to: root.appendingPathComponent("docs/screenshots/\(name).png"))
    }
}
