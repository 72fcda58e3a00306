import OpenIDConnect
import Testing

@Suite("Redaction of URLs, form bodies and provider text")
struct RedactionTests {
    @Test("URLs keep their names and the protocol's public values; every other value becomes its length", arguments: [
        ("com.example:/cb?code=abc&state=xyz12", "com.example:/cb?code=<3>&state=<5>"),
        ("https://id.example/authorize?client_id=app&scope=openid%20profile&state=s3cr3t&nonce=n",
         "https://id.example/authorize?client_id=app&scope=openid%20profile&state=<6>&nonce=<1>"),
        ("https://a.example/cb#access_token=tok&token_type=Bearer", "https://a.example/cb#access_token=<3>&token_type=<6>"),
        ("https://a.example/cb?justatoken", "https://a.example/cb?<10>"),
        ("https://a.example/cb#bare-fragment-token", "https://a.example/cb#<19>"),
        ("https://a.example/app;jsessionid=ABCDEF0123/page?x=1", "https://a.example/app;jsessionid=<10>/page?x=<1>"),
        ("https://a.example/a;token;v=2", "https://a.example/a;<5>;v=<1>"),
        ("https://user:hunter22@a.example/x", "https://user:<8>@a.example/x"),
        ("https://a.example/cb?error=access_denied&error_description=No&state=abc", "https://a.example/cb?error=access_denied&error_description=No&state=<3>"),
        ("https://a.example/cb?empty=&&x", "https://a.example/cb?empty=&&<1>"),
        ("https://a.example/x", "https://a.example/x"),
        ("alice:pw@proxy:3128", "alice:<2>@proxy:3128"),
        ("alice:s3cret@proxy", "alice:<6>@proxy"),
        ("alice@proxy:3128", "alice@proxy:3128"),
        ("proxy.example:3128", "proxy.example:3128"),
    ])
    func urls(url: String, redacted: String) {
        #expect(URLRedaction.redactingValues(url) == redacted)
        #expect(URLRedaction.redactingValues(redacted) == redacted, "redacting twice changes nothing")
    }

    @Test("form bodies")
    func formBodies() {
        #expect(URLRedaction.redactingFormBody("code=abc&state=defg&iss=https%3A%2F%2Fid") == "code=<3>&state=<4>&iss=https%3A%2F%2Fid")
    }

    @Test("provider text keeps words and hides token-like runs")
    func providerText() {
        let cutOff = #"{"access_token":"eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiIxIn0","token_type":"Bearer","refresh_tok"#
        let hidden = TextRedaction.hidingTokenLikeRuns(in: cutOff)
        #expect(hidden == #"{"access_token":"<36>","token_type":"Bearer","refresh_tok"#)
        #expect(TextRedaction.hidingTokenLikeRuns(in: "<h1>502 Bad Gateway</h1>") == "<h1>502 Bad Gateway</h1>")
    }

    @Test("a user-info password with no scheme (as curl takes a proxy variable) is hidden in URLs and in free text", arguments: [
        ("https_proxy=alice:pw@proxy:3128 is set", "https_proxy=alice:<2>@proxy:3128 is set"),
        ("proxy 'alice:hunter2@proxy' refused", "proxy 'alice:<7>@proxy' refused"),
        ("via http://bob:pw@proxy.example/", "via http://bob:<2>@proxy.example/"),
        ("write to alice@example.com at 10:30", "write to alice@example.com at 10:30"),
    ])
    func schemelessUserInfo(text: String, redacted: String) {
        #expect(TextRedaction.hidingPasswords(in: text) == redacted)
        #expect(TextRedaction.hidingTokenLikeRuns(in: text) == TextRedaction.hidingTokenLikeRuns(in: redacted),
                "provider text has its passwords hidden too")
        #expect(TextRedaction.hidingPasswords(in: redacted) == redacted, "redacting twice changes nothing")
    }
}
