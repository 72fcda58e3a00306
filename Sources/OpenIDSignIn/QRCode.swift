internal import CQREncode

/// A QR code (made by libqrencode), to show a device sign-in's verification URI to a phone: as
/// text on a terminal (``terminalText``) or as pixels on a screen (``isDark(row:column:)``).
public struct QRCode: Sendable, Hashable {
    /// Modules per side (without the quiet zone).
    public let size: Int
    private let modules: [Bool]

    /// The code for `text` (error correction level M, the smallest version that holds it), or
    /// `nil` when the text is too long for any QR code (about 2,300 bytes at level M).
    public init?(_ text: String) {
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        size = width
        modules = (0..<width * width).map { cqr_is_dark(code, Int32($0)) != 0 }
    }

    /// Whether the module at `row`, `column` is dark; outside the code (the quiet zone), no.
    public func isDark(row: Int, column: Int) -> Bool {
        guard (0..<size).contains(row), (0..<size).contains(column) else { return false }
        return modules[row * size + column]
    }

    /// The code for a terminal: two rows of modules per line in half blocks, dark on light
    /// whatever the terminal's colours (ANSI black on white), with a quiet zone of 2 modules.
    public var terminalText: String {
        let quiet = 2
        let range = -quiet..<(size + quiet)
        var lines: [String] = []
        for row in stride(from: -quiet, to: size + quiet, by: 2) {
            let cells = range.map { column -> Character in
                switch (isDark(row: row, column: column), isDark(row: row + 1, column: column)) {
                case (true, true): "█"
                case (true, false): "▀"
                case (false, true): "▄"
                case (false, false): " "
                }
            }
            lines.append("\u{1B}[30;47m" + String(cells) + "\u{1B}[0m")
        }
        return lines.joined(separator: "\n")
    }
}
