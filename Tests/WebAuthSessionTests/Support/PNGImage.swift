import CWebKitGTK
import Foundation

/// A PNG decoded with GdkPixbuf, to check what a screenshot shows.
struct PNGImage {
    let width: Int
    let height: Int
    private let rgb: [(UInt8, UInt8, UInt8)]

    /// Decodes `data`; `nil` if it is not an image.
    init?(_ data: Data) {
        let loader = gdk_pixbuf_loader_new()!
        defer { g_object_unref(loader) }
        let written = data.withUnsafeBytes { bytes in
            gdk_pixbuf_loader_write(loader, bytes.baseAddress!.assumingMemoryBound(to: guchar.self), gsize(bytes.count), nil)
        }
        guard written != 0, gdk_pixbuf_loader_close(loader, nil) != 0, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else { return nil }
        width = Int(gdk_pixbuf_get_width(pixbuf))
        height = Int(gdk_pixbuf_get_height(pixbuf))
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
        let pixels = gdk_pixbuf_get_pixels(pixbuf)!
        var rgb: [(UInt8, UInt8, UInt8)] = []
        rgb.reserveCapacity(width * height)
        for y in 0..<height {
            for x in 0..<width {
                let offset = y * stride + x * channels
                rgb.append((pixels[offset], pixels[offset + 1], pixels[offset + 2]))
            }
        }
        self.rgb = rgb
    }

    /// How many pixels in the rows `rows` (all by default) are within `tolerance` of the colour `hex` (0xRRGGBB).
    func count(_ hex: UInt32, tolerance: Int = 12, rows: Range<Int>? = nil) -> Int {
        let (r, g, b) = (Int(hex >> 16 & 0xFF), Int(hex >> 8 & 0xFF), Int(hex & 0xFF))
        let range = rows ?? 0..<height
        var matches = 0
        for y in range.clamped(to: 0..<height) {
            for x in 0..<width {
                let pixel = rgb[y * width + x]
                if abs(Int(pixel.0) - r) <= tolerance, abs(Int(pixel.1) - g) <= tolerance, abs(Int(pixel.2) - b) <= tolerance { matches += 1 }
            }
        }
        return matches
    }
}
