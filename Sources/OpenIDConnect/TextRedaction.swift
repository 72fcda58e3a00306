/// Free text from a provider (an error page, a cut-off token response) with everything that
/// looks like a credential hidden, so the text can go into a message or a log.
package enum TextRedaction {
    /// Runs shorter than this stay: words, numbers, short error codes.
    static let shortestHiddenRun = 16

    /// `text` with every run of 16 or more token characters (letters, digits, `-._~+/=`: the
    /// alphabets of opaque tokens, authorization codes, JWTs and base64) replaced by its
    /// length, `<N>`. `{"access_token":"eyJhbGciOi…"}` becomes `{"access_token":"<412>"}`.
    package static func hidingTokenLikeRuns(in text: String) -> String {
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
}
