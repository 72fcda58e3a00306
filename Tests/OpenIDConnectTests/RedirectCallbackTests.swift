import OpenIDConnect
import Testing

@Suite("Redirect callback parsing")
struct RedirectCallbackTests {
    let redirect = try! RedirectURI("com.example:/cb")

    @Test("query, fragment and form body are merged, each with its source")
    func merged() throws {
        let callback = try RedirectCallback(url: "com.example:/cb?code=a%20b&x=1#id_token=t+u", formBody: "state=s%2Fz", redirectURI: redirect)
        #expect(callback["code"] == "a b")
        #expect(callback.parameters["code"]?.source == .query)
        #expect(callback["id_token"] == "t u")
        #expect(callback.parameters["id_token"]?.source == .fragment)
        #expect(callback["state"] == "s/z")
        #expect(callback.parameters["state"]?.source == .formPost)
        #expect(callback.parameters.count == 4)
    }

    @Test("a parameter twice is an error", arguments: [
        ("com.example:/cb?code=a&code=b", nil as String?, [RedirectCallback.Source.query, .query]),
        ("com.example:/cb?code=a#code=b", nil, [.query, .fragment]),
        ("com.example:/cb?code=a", "code=b", [.query, .formPost]),
        ("com.example:/cb#code=a&code=a", nil, [.fragment, .fragment]),
    ])
    func duplicates(url: String, body: String?, sources: [RedirectCallback.Source]) {
        #expect(throws: RedirectCallbackError.duplicateParameter("code", sources)) {
            try RedirectCallback(url: url, formBody: body, redirectURI: redirect)
        }
    }

    @Test("broken percent-encoding is an error", arguments: [
        ("com.example:/cb?code=%zz", RedirectCallback.Source.query),
        ("com.example:/cb?code=%4", .query),
        ("com.example:/cb#code=%FF%FE", .fragment),
    ])
    func malformed(url: String, source: RedirectCallback.Source) {
        #expect(throws: RedirectCallbackError.malformedEncoding(source)) {
            try RedirectCallback(url: url, redirectURI: redirect)
        }
    }

    @Test("a URL that is not the redirect URI is refused")
    func notRedirect() {
        #expect(throws: RedirectCallbackError.notRedirectURI) {
            try RedirectCallback(url: "com.example:/cbx?code=1", redirectURI: redirect)
        }
    }

    @Test("query items of the registered redirect URI are not response parameters")
    func fixedQuery() throws {
        let uri = try RedirectURI("com.example:/cb?tenant=a")
        let callback = try RedirectCallback(url: "com.example:/cb?tenant=a&code=1", redirectURI: uri)
        #expect(callback.parameters.keys.sorted() == ["code"])
    }

    @Test("description and redacted URLs show names and lengths, never values")
    func redaction() throws {
        let callback = try RedirectCallback(url: "com.example:/cb?code=SECRETCODE&state=abc#access_token=TOKEN", redirectURI: redirect)
        #expect(!callback.description.contains("SECRET") && !callback.description.contains("TOKEN"))
        #expect(callback.description.contains("code=<10 chars, query>"))
        #expect(URLRedaction.redactingValues(callback.url) == "com.example:/cb?code=<10>&state=<3>#access_token=<5>")
        #expect(URLRedaction.redactingValues("https://a.example/x") == "https://a.example/x")
    }
}

@Suite("Form URL encoding")
struct FormURLEncodingTests {
    @Test("round trip of awkward values")
    func roundTrip() throws {
        let pairs: [(name: String, value: String)] = [("a b", "c&d=e"), ("ü", "+/%"), ("empty", ""), ("emoji", "🔑")]
        let decoded = try FormURLEncoding.decode(FormURLEncoding.encode(pairs))
        #expect(decoded.map(\.name) == pairs.map(\.name))
        #expect(decoded.map(\.value) == pairs.map(\.value))
    }

    @Test("names without = and empty segments")
    func edges() throws {
        let decoded = try FormURLEncoding.decode("a&&b=&=c")
        #expect(decoded.map(\.name) == ["a", "b", ""])
        #expect(decoded.map(\.value) == ["", "", "c"])
    }
}

@Suite("JSON values")
struct JSONValueTests {
    @Test("parses any top-level value and prints it back")
    func parse() throws {
        #expect(try JSONValue(parsing: "null") == .null)
        #expect(try JSONValue(parsing: "true") == .bool(true))
        #expect(try JSONValue(parsing: "2.5") == .number(2.5))
        #expect(try JSONValue(parsing: #"{"b":[1,"x"],"a":{}}"#) == .object(["a": .object([:]), "b": .array([.number(1), .string("x")])]))
        #expect(JSONValue.object(["b": .null, "a": .string("/")]).description == #"{"a":"/","b":null}"#)
    }

    @Test("text that is not JSON is a typed error")
    func invalid() {
        #expect(throws: JSONValue.ParseError.self) { try JSONValue(parsing: "{not json") }
        #expect(throws: JSONValue.ParseError.self) { try JSONValue(parsing: "") }
    }
}
