/// "Did you mean …?" for a name a person typed: the known name closest to it, when it is close
/// enough to be a slip (an edit distance of at most 2, and less than half the name).
package enum Spelling {
    /// The name in `known` nearest to `typed`, if it is close enough.
    package static func suggestion(for typed: String, among known: some Sequence<String>) -> String? {
        let limit = min(2, max(1, typed.count / 2))
        let typedLowercased = typed.lowercased()
        var best: (name: String, distance: Int)?
        // Names whose lengths differ by more than the limit are farther than it: skipping them keeps
        // a long typed name (a 4 KB key in a fuzzed file) from costing length × length per name.
        for name in known {
            let nameLowercased = name.lowercased()
            guard abs(nameLowercased.count - typedLowercased.count) <= limit else { continue }
            let found = distance(typedLowercased, nameLowercased)
            guard found <= limit else { continue }
            if let current = best, current.distance < found || (current.distance == found && current.name < name) { continue }
            best = (name, found)
        }
        return best?.name
    }

    /// "unknown key 'redirect_url' (did you mean 'redirect_uri'?)", or with no close name, the
    /// names there are: "unknown key 'colour' (known: client_id, issuer, …)".
    package static func unknown(_ what: String, _ typed: String, among known: some Sequence<String>) -> String {
        if let near = suggestion(for: typed, among: known) { return "unknown \(what) '\(typed)' (did you mean '\(near)'?)" }
        return "unknown \(what) '\(typed)' (known: \(Set(known).sorted().joined(separator: ", ")))"
    }

    /// The Levenshtein distance: insertions, deletions and substitutions.
    static func distance(_ a: String, _ b: String) -> Int {
        let (a, b) = (Array(a), Array(b))
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
