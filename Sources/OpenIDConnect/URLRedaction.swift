/// URLs with their response parameters hidden, for logs and navigation records.
public enum URLRedaction {
    /// `url` with every query and fragment value replaced by its length:
    /// `com.example:/cb?code=<43>&state=<22>`. Names stay, so a log still tells what came back.
    public static func redactingValues(_ url: String) -> String {
        var base = Substring(url)
        var parts: [(separator: Character, text: Substring)] = []
        if let hash = base.firstIndex(of: "#") {
            parts.insert(("#", base[base.index(after: hash)...]), at: 0)
            base = base[..<hash]
        }
        if let mark = base.firstIndex(of: "?") {
            parts.insert(("?", base[base.index(after: mark)...]), at: 0)
            base = base[..<mark]
        }
        var out = String(base)
        for part in parts {
            out.append(part.separator)
            out += part.text.split(separator: "&", omittingEmptySubsequences: false).map { pair in
                guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
                return "\(pair[..<equals])=<\(pair.distance(from: pair.index(after: equals), to: pair.endIndex))>"
            }.joined(separator: "&")
        }
        return out
    }
}
