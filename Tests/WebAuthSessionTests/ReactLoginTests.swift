import DevProvider
import Foundation
import OpenIDConnect
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// Login scripts on a single-page login built on real React 18 (Debian's `node-react` and
    /// `node-react-dom` UMD builds, served by the test): controlled inputs whose values live in
    /// React state, a submit button disabled until both hold text, submit by Enter.
    @Suite("Login scripts on a React 18 page")
    struct ReactLogin {
        static let umd = ["/usr/share/nodejs/react/umd/react.production.min.js",
                          "/usr/share/nodejs/react-dom/umd/react-dom.production.min.js"]

        /// The login page on `site`. Submitting redirects with what React's state held, the kind of
        /// the last input event React saw (`inputType`), and whether every key the page saw was trusted.
        static func page(on site: TestSite) throws -> URL {
            let scripts = try umd.map { path in
                let source = try String(contentsOfFile: path, encoding: .utf8)
                return site.serve(LocalHTTPResponse(headers: ["Content-Type": "text/javascript; charset=utf-8"], body: source))
            }
            return site.page(title: "React sign-in", head: scripts.map { "<script src='\($0.absoluteString)'></script>" }.joined(), body: """
                <div id='root'></div>
                <script>
                const keys = [];
                addEventListener('keydown', (event) => keys.push(event.isTrusted), true);
                const e = React.createElement;
                function Login() {
                    const [user, setUser] = React.useState('');
                    const [password, setPassword] = React.useState('');
                    const [inputType, setInputType] = React.useState('');
                    const submit = (event) => {
                        event.preventDefault();
                        location.href = 'com.example:/cb?' + new URLSearchParams({ user, password, inputType, keys: keys.length,
                            trusted: keys.every((trusted) => trusted) });
                    };
                    return e('form', { onSubmit: submit },
                        e('input', { id: 'user', value: user, onChange: (event) => setUser(event.target.value) }),
                        e('input', { id: 'password', type: 'password', value: password, onChange: (event) => { setPassword(event.target.value); setInputType(event.nativeEvent.inputType ?? 'none'); } }),
                        e('button', { id: 'submit', type: 'submit', disabled: !(user && password) }, 'Sign in'));
                }
                ReactDOM.createRoot(document.getElementById('root')).render(e(Login));
                </script>
                """)
        }

        /// Runs `steps` on the React page and returns the redirect it ends in.
        func signIn(_ steps: [LoginStep]) async throws -> RedirectCallback {
            let site = try await TestSite.start()
            let session = try TestEngine.session(try Self.page(on: site), redirectURI: "com.example:/cb")
            let script = Task { try await LoginScript(steps).run(in: session, environment: ["PASSWORD": "s3cret pass"]) }
            let callback = try await session.start()
            try await script.value
            return callback
        }

        @Test("fill reaches React's state (the button enables), and press_enter submits with a trusted Enter")
        func fillThenEnter() async throws {
            let callback = try await signIn([.fill("#user", .literal("alice")), .fill("#password", .environment("PASSWORD")),
                                             .waitForElement("#submit:enabled"), .pressEnter("#password")])
            #expect(callback["user"] == "alice")
            #expect(callback["password"] == "s3cret pass")
            #expect(callback["inputType"] == "insertText", "an InputEvent, as typing makes")
            #expect(callback["keys"] == "1", "one key: Enter")
            #expect(callback["trusted"] == "true")
        }

        @Test("type sends trusted keys that React's state follows, replacing what a field held (nothing to type: no wait)")
        func typeThenEnter() async throws {
            let callback = try await signIn([.type("#user", .literal("")), .fill("#user", .literal("replaced")), .type("#user", .literal("bob")),
                                             .type("#password", .environment("PASSWORD")), .pressEnter("#password")])
            #expect(callback["user"] == "bob")
            #expect(callback["password"] == "s3cret pass")
            #expect(callback["inputType"] == "insertText")
            #expect(callback["keys"] == "\("bob".count + "s3cret pass".count + 1)")
            #expect(callback["trusted"] == "true")
        }
    }
}
