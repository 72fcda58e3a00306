/// Text from a provider made safe to write to a terminal: no control character survives, so a
/// hostile value cannot move the cursor, clear the screen, retitle the window, hide text or
/// plant a hyperlink (`ESC ] 8`) when it is shown.
package enum TerminalText {
    /// `text` without its C0 controls (U+0000–U+001F, tab and newline included), DEL (U+007F)
    /// and C1 controls (U+0080–U+009F), and without the whole of every escape sequence they
    /// start: a CSI (`ESC [` or U+009B, up to its final byte), a string command (OSC, DCS, SOS,
    /// PM, APC: `ESC ]`, `ESC P`, `ESC X`, `ESC ^`, `ESC _` or their C1 forms, up to BEL or ST),
    /// or `ESC` and the character after it.
    package static func strippingControls(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var index = 0
        /// Skips a CSI's parameters and intermediates, then its final byte (U+0040–U+007E).
        func skipControlSequence() {
            while index < scalars.count, (0x20...0x3F).contains(scalars[index].value) { index += 1 }
            if index < scalars.count, (0x40...0x7E).contains(scalars[index].value) { index += 1 }
        }
        /// Skips a string command up to and with its terminator: BEL, `ESC \` or ST (U+009C).
        func skipCommandString() {
            while index < scalars.count {
                let value = scalars[index].value
                index += 1
                if value == 0x07 || value == 0x9C { return }
                if value == 0x1B, index < scalars.count, scalars[index] == "\\" { index += 1; return }
            }
        }
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            switch scalar.value {
            case 0x1B:
                guard index < scalars.count else { break }
                let next = scalars[index]
                index += 1
                switch next {
                case "[": skipControlSequence()
                case "]", "P", "X", "^", "_": skipCommandString()
                default: break
                }
            case 0x9B: skipControlSequence()
            case 0x9D, 0x90, 0x98, 0x9E, 0x9F: skipCommandString()
            case 0x00...0x1F, 0x7F...0x9F: break
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
