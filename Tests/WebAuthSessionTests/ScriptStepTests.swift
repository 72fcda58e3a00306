import DevProvider
import Foundation
import OpenIDConnect
import Testing
@testable import WebAuthSession

/// A script in Fixtures/login-scripts/ (the schema test checks every one of them).
func loginScriptFixture(_ name: String) throws -> LoginScript {
    let url = try #require(Bundle.module.url(forResource: name, withExtension: "yaml", subdirectory: "Fixtures/login-scripts"))
    return try LoginScript(contentsOfFile: url.path)
}

extension EngineTests {
    /// The steps for the screens real providers show besides the password form: consent boxes,
    /// drop-downs, a button the page enables later, screens that appear for some sign-ins only.
    /// Each test runs a script from Fixtures/login-scripts/ on pages made for it.
    @Suite("Script steps")
    struct ScriptSteps {
        /// Runs `script` on a session that starts at `start` and returns the redirect's callback;
        /// a failing script cancels the session and its error is thrown.
        static func signIn(at start: URL, with script: LoginScript) async throws -> RedirectCallback {
            let session = try TestEngine.session(start, redirectURI: "com.example:/cb")
            let running = Task {
                do { try await script.run(in: session) } catch {
                    session.cancel()
                    throw error
                }
            }
            let outcome: Result<RedirectCallback, WebAuthenticationError>
            do { outcome = .success(try await session.start()) } catch { outcome = .failure(error) }
            try await running.value  // the script's own error says more than the cancellation it caused
            return try outcome.get()
        }

        @Test("check, uncheck and select set a consent form as a person would, with the events a page listens for")
        func formControls() async throws {
            let site = try await TestSite.start()
            let start = site.page(title: "Consent", body: """
                <form id='f' onsubmit="event.preventDefault(); location.href = 'com.example:/cb?' + new URLSearchParams(new FormData(this)) + '&heard=' + heard.join(',')">
                  <label><input type='checkbox' id='consent' name='consent' value='yes'> I agree</label>
                  <label><input type='checkbox' id='newsletter' name='newsletter' value='yes' checked> Send me news</label>
                  <label><input type='checkbox' id='already' name='already' value='yes' checked> Remember this choice</label>
                  <select id='country' name='country'><option value=''>Choose</option><option value='no'>Norway</option><option value='se'>Sweden</option></select>
                  <select id='language' name='language'><option value='en'>English</option><option value='nb'>Norsk bokmål</option></select>
                  <button id='allow'>Allow</button>
                </form>
                <script>
                  const heard = [];
                  for (const element of document.querySelectorAll('input, select'))
                    for (const type of ['input', 'change']) element.addEventListener(type, () => heard.push(element.id + ':' + type));
                </script>
                """)
            let callback = try await Self.signIn(at: start, with: try loginScriptFixture("form-controls"))
            #expect(callback["consent"] == "yes")
            #expect(callback["newsletter"] == nil)
            #expect(callback["already"] == "yes")
            #expect(callback["country"] == "no", "chosen by its text")
            #expect(callback["language"] == "nb", "chosen by its value")
            #expect(callback["heard"] == "consent:input,consent:change,newsletter:input,newsletter:change,"
                + "country:input,country:change,language:input,language:change", "an already ticked box heard nothing")
        }

        @Test("an optional screen and a when block run when their screen is shown and are skipped when it is not",
              arguments: [true, false])
        func screensThatMayAppear(shown: Bool) async throws {
            let site = try await TestSite.start()
            let finish = site.page(title: "Signed in", body: """
                <button id='finish' onclick="location.href = 'com.example:/cb' + location.search">Continue</button>
                """)
            let choose = "location.href = '\(finish.absoluteString)' + location.search + '&account=' + encodeURIComponent(this.textContent)"
            let chooser = site.page(title: "Choose an account", body: """
                <ul id='accounts'><li onclick="\(choose)">bob@example.com</li><li onclick="\(choose)">alice@example.com</li></ul>
                """)
            let staySignedIn = site.page(title: "Stay signed in?", body: """
                <p>Stay signed in?</p><button id='stay-yes' onclick="location.href = '\(chooser.absoluteString)?stay=yes'">Yes</button>
                """)
            let next = shown ? staySignedIn.absoluteString : finish.absoluteString + "?account=default"
            let start = site.page(title: "Sign in", body: "<button id='sign-in' onclick=\"location.href = '\(next)'\">Sign in</button>")
            let callback = try await Self.signIn(at: start, with: try loginScriptFixture("screens-that-may-appear"))
            #expect(callback["stay"] == (shown ? "yes" : nil))
            #expect(callback["account"] == (shown ? "alice@example.com" : "default"))
        }

        @Test("wait_for_enabled waits for the page to enable its button; wait_for_url matches a regular expression")
        func enabledLaterAndURLPattern() async throws {
            let site = try await TestSite.start()
            let finish = site.page(title: "Consent", body: """
                <button id='finish' onclick="location.href = 'com.example:/cb' + location.search">Finish</button>
                """)
            // The page enables its button by itself a little later; a click on a disabled button does nothing.
            let start = site.page(title: "Wait", body: """
                <button id='go' disabled onclick="location.href = '\(finish.absoluteString)?consent=42'">Continue</button>
                <script>setTimeout(() => { document.getElementById('go').disabled = false; }, 300);</script>
                """)
            let callback = try await Self.signIn(at: start, with: try loginScriptFixture("enabled-later"))
            #expect(callback["consent"] == "42")
        }

        // A real captcha cannot run here (no network, and it is made to stop scripts): these pages
        // embed a widget's iframe, script or container at the same path shape, served by the test site.
        @Test("a captcha ends the script at once, named, with the page's text", arguments: [
            (CaptchaKind.reCAPTCHA, "<iframe title='reCAPTCHA' src='/recaptcha/api2/anchor?k=test-site-key&size=normal'></iframe>"),
            (.hCaptcha, "<iframe src='/captcha/v1/0000/static/hcaptcha.html#frame=checkbox'></iframe>"),
            (.turnstile, "<script src='/turnstile/v0/api.js'></script>"),
            (.reCAPTCHA, "<div class='g-recaptcha' data-sitekey='test-site-key'></div>"),
        ])
        func captcha(kind: CaptchaKind, widget: String) async throws {
            let site = try await TestSite.start()
            for path in ["/recaptcha/api2/anchor", "/captcha/v1/0000/static/hcaptcha.html"] { _ = site.serve(.html("<p>widget</p>"), at: path) }
            _ = site.serve(LocalHTTPResponse(headers: ["Content-Type": "text/javascript"], body: "// widget"), at: "/turnstile/v0/api.js")
            let start = site.page(title: "Sign in", body: """
                <p>Prove you are human. Reference AbCdEfGhIjKlMnOpQrStUv</p><input id='username'>\(widget)
                """)
            let script = try loginScriptFixture("captcha")
            let session = try TestEngine.session(start, redirectURI: "com.example:/cb")
            let run = Task { try await session.start() }
            defer { session.cancel() }
            do {
                try await script.run(in: session)
                Issue.record("the script got past a captcha")
            } catch {
                #expect(error.stepNumber == 2)
                guard case .captchaRequired(let found, let text, let report) = SignInScriptError(error) else {
                    Issue.record("not named a captcha: \(error)")
                    return
                }
                #expect(found == kind)
                #expect(text.hasPrefix("Prove you are human."), "\(text)")
                #expect(!text.contains("AbCdEfGhIjKlMnOpQrStUv"), "a token-like run is hidden")
                #expect(report?.screenshotPNG != nil)
                #expect("\(SignInScriptError(error))".contains("\(kind) captcha"))
            }
            session.cancel()
            _ = await run.result
        }

        @Test("an invisible reCAPTCHA (v3, render=KEY) asks a person nothing, and a script passes it")
        func invisibleCaptcha() async throws {
            let site = try await TestSite.start()
            _ = site.serve(LocalHTTPResponse(headers: ["Content-Type": "text/javascript"], body: "// v3"), at: "/recaptcha/api.js")
            let start = site.page(title: "Sign in", body: """
                <script src='/recaptcha/api.js?render=test-site-key'></script><input id='username'>
                <button id='next' onclick="document.body.insertAdjacentHTML('beforeend', '<input id=password>')">Next</button>
                <button id='finish' onclick="location.href = 'com.example:/cb?done=1'">Finish</button>
                """)
            let script = LoginScript([.fill("#username", .literal("alice")), .click("#next"), .waitForElement("#password"), .click("#finish")])
            let callback = try await Self.signIn(at: start, with: script)
            #expect(callback["done"] == "1")
        }
    }
}
