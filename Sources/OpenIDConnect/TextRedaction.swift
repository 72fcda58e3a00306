/// Free text from a provider (an error page, a cut-off token response) with everything that
/// looks like a credential hidden, so the text can go into a message or a log.
package enum TextRedaction {
    /// Runs shorter than this stay: words, numbers, short error codes.
    static let shortestHiddenRun = 16

    /// `text` with every run of 16 or more token characters (letters, digits, `-._~+/=`: the
    /// alphabets of opaque tokens, authorization codes, JWTs and base64) replaced by its
    /// length, `<N>`. `{"access_token":"eyJhbGciOi…"}` becomes `{"access_token":"<412>"}`.
    /// A password in a user-info, however short, is hidden too: `alice:<2>@proxy:3128`
    /// (``hidingPasswords(in:)``).
    package static func hidingTokenLikeRuns(in text: String) -> String {
        let text = hidingPasswords(in: text)
        var out = ""
        var run = ""
        func flush() {
            out += run.count >= shortestHiddenRun ? "<\(run.count)>" : run
            run = ""
        }
        for character in text {
            if character.isASCII, character.isLetter || character.isNumber || "-._~+/=".contains(character) {
                run.append(character)
            } else {
                flush()
                out.append(character)
            }
        }
        flush()
        return out
    }

    /// `text` with the password of every `user:password@host` in it hidden, with a scheme
    /// (`https://user:pw@host`) or without (`user:pw@proxy:3128`, as curl accepts a proxy), each
    /// word (between spaces, quotes and brackets) on its own.
    package static func hidingPasswords(in text: String) -> String {
        var out = ""
        var start = text.startIndex
        func flush(upTo end: String.Index) {
            let word = text[start..<end]
            out += word.contains("@") ? String(URLRedaction.redactingPassword(word)) : String(word)
        }
        for index in text.indices where text[index].isWhitespace || "\"'<>()[]{}`".contains(text[index]) {
            flush(upTo: index)
            out.append(text[index])
            start = text.index(after: index)
        }
        flush(upTo: text.endIndex)
        return out
    }
}
