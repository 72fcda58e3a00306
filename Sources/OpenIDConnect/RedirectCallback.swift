/// What came back to the redirect URI: the full URL and its parameters from the query, the
/// fragment and a form-post body, merged, each remembering where it came from.
///
/// A parameter that appears twice, in one place or in two (`?code=a&code=b`, or `state` in
/// both query and fragment), is rejected with ``RedirectCallbackError/duplicateParameter(_:_:)``
/// rather than guessed at. Query items written into the redirect URI itself are not
/// parameters of the response and are left out.
public struct RedirectCallback: Sendable, Hashable, CustomStringConvertible {
    /// Where a parameter was found.
    public enum Source: String, Sendable, Hashable, Codable {
        /// The query string (`response_mode=query`, the default for `code`).
        case query
        /// The fragment (`response_mode=fragment`, implicit and hybrid flows).
        case fragment
        /// The body of a form POST (`response_mode=form_post`).
        case formPost = "form_post"
    }

    /// One response parameter and where it was found.
    public struct Parameter: Sendable, Hashable {
        /// The decoded value.
        public let value: String
        /// Where it was found.
        public let source: Source
    }

    /// The callback URL exactly as the navigation reported it (it holds the response: treat it as a secret).
    public let url: String
    /// The parameters by name.
    public let parameters: [String: Parameter]

    /// The value of parameter `name`, wherever it was found.
    public subscript(name: String) -> String? { parameters[name]?.value }

    /// Parses a navigation to `redirectURI`.
    /// - Parameters:
    ///   - url: the URL of the navigation that matched the redirect URI.
    ///   - formBody: the `application/x-www-form-urlencoded` body of a form POST, if any.
    ///   - redirectURI: the redirect URI it matched; its own query items are not response parameters.
    /// - Throws: ``RedirectCallbackError`` for a URL that does not match, bad encoding or a duplicate.
    public init(url: String, formBody: String? = nil, redirectURI: RedirectURI) throws(RedirectCallbackError) {
        guard redirectURI.matches(url) else { throw .notRedirectURI }
        var query = Substring("")
        var fragment: Substring?
        var rest = Substring(url)
        if let hash = rest.firstIndex(of: "#") {
            fragment = rest[rest.index(after: hash)...]
            rest = rest[..<hash]
        }
        if let mark = rest.firstIndex(of: "?") { query = rest[rest.index(after: mark)...] }

        var fixed = redirectURI.fixedQueryItems
        var parameters: [String: Parameter] = [:]
        func add(_ encoded: Substring, from source: Source) throws(RedirectCallbackError) {
            let pairs: [(name: String, value: String)]
            do { pairs = try FormURLEncoding.decode(encoded) } catch { throw .malformedEncoding(source) }
            for (name, value) in pairs {
                if source == .query, let index = fixed.firstIndex(where: { $0.name == name && $0.value == value }) {
                    fixed.remove(at: index)
                    continue
                }
                if let earlier = parameters[name] { throw .duplicateParameter(name, [earlier.source, source]) }
                parameters[name] = Parameter(value: value, source: source)
            }
        }
        try add(query, from: .query)
        if let fragment { try add(fragment, from: .fragment) }
        if let formBody { try add(Substring(formBody), from: .formPost) }
        self.url = url
        self.parameters = parameters
    }

    /// The parameter names and sources, values redacted to their length: safe to log.
    public var description: String {
        let shown = parameters.keys.sorted().map { name in
            let parameter = parameters[name]!
            return "\(name)=<\(parameter.value.count) chars, \(parameter.source.rawValue)>"
        }
        return "RedirectCallback(\(shown.joined(separator: ", ")))"
    }
}

/// Why a navigation to the redirect URI could not be read as a response.
public enum RedirectCallbackError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL is not the redirect URI.
    case notRedirectURI
    /// A `%` escape or UTF-8 sequence in this part is broken.
    case malformedEncoding(RedirectCallback.Source)
    /// This parameter came more than once (the sources say where).
    case duplicateParameter(String, [RedirectCallback.Source])

    public var description: String {
        switch self {
        case .notRedirectURI: "the URL is not the redirect URI"
        case .malformedEncoding(let source): "the callback's \(source.rawValue) has broken percent-encoding"
        case .duplicateParameter(let name, let sources):
            "parameter '\(name)' appears more than once (\(sources.map(\.rawValue).joined(separator: ", ")))"
        }
    }
}
