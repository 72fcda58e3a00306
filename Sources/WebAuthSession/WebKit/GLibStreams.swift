internal import CWebKitGTK

/// Reading GLib input streams that are already in memory (request bodies).
enum GLibStreams {
    /// The whole stream as UTF-8 text; `nil` when it is larger than `limit` bytes, unreadable or not UTF-8.
    static func readText(_ stream: UnsafeMutablePointer<GInputStream>, limit: Int) -> String? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                g_input_stream_read(stream, buffer.baseAddress, gsize(buffer.count), nil, nil)
            }
            if count < 0 { return nil }
            if count == 0 { break }
            bytes += chunk[0..<count]
            if bytes.count > limit { return nil }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
