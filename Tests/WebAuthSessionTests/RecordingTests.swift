import DevProvider
import Foundation
import OpenIDConnect
import OpenIDSignIn
import TestSupport
import Testing
import WebAuthn
@testable import WebAuthSession

extension EngineTests {
    /// `webauth record`'s engine: a person signs in once in the window, driven through
    /// xdotool on the private Xvfb (trusted clicks and keys), while a ``LoginRecorder`` records;
    /// the recorded script then signs in headless five times, and validates against the schema.
    @Suite("Recording a sign-in as a login script")
    struct Recording {
        /// Five accounts with a password and a TOTP secret each: one recorded, all five replayed with
        /// the recorded script (as a batch would), so no replay waits for another's TOTP time step.
        static let users = (1...5).map { number in
            OpenIDProvider.User(username: "user\(number)", password: "pass word \(number)", subject: "10000\(number)", name: "User \(number)",
                                email: "user\(number)@example.com", totpSecret: ["JBSWY3DPEHPK3PXP", "GEZDGNBVGY3TQOJQ", "MFRGGZDFMZTWQ2LK",
                                                                               "KRSXG5CTMVRXEZLU", "NBSWY3DPO5XXE3DE"][number - 1])
        }
        static let client = OpenIDProvider.Client(clientID: "recorded-app", redirectURIs: ["com.example.webauth:/callback"], requiresConsent: true)

        /// Options for a session in a window whose recorder reports to `person`.
        static func options(recordingFor person: RecordingPerson) -> WebAuthenticationOptions {
            var options = TestEngine.options(.window())
            options.recorder = person.recorder
            return options
        }

        /// Shows `url` in a window that records `person`, who acts in `acting`, and returns its
        /// redirect to `com.example:/cb`. The engine's user agent runs `acting` beside the page, as it
        /// runs a login script: a step of the person's that fails ends the sign-in with that step's
        /// error at once, not with the redirect wait's a minute later.
        static func record(_ url: URL, person: RecordingPerson,
                           acting: @escaping @Sendable (WebAuthenticationSession) async throws -> Void) async throws -> RedirectCallback {
            try await WebAuthenticationUserAgent(options: options(recordingFor: person), script: acting)
                .present(AuthorizationPresentation(url: url, redirectURI: try RedirectURI("com.example:/cb"), expectedState: "", purpose: .authorization))
        }

        /// What the person does on LemonLDAP::NG's login form: once the portal has translated it
        /// (its translation, loaded after the page, moves the form: #userfield's placeholder says
        /// it is done), the user name, the password (a Demo user's is its login), Connect.
        static func portalLogin(as user: String, person: RecordingPerson, session: WebAuthenticationSession) async throws {
            try await session.waitForElement("#userfield[placeholder]")
            try await person.click("#userfield", in: session)
            try await person.type(user, in: session)
            try await person.click("#passwordfield", in: session)
            try await person.type(user, in: session)
            try await person.click("#lform button[type=submit]", in: session, leavesPage: true)
        }

        /// What the person does on LemonLDAP::NG's consent screen: Accept, once the heading is there
        /// (it is empty until the portal's translation fills it in, which moves the buttons down).
        static func portalConsent(person: RecordingPerson, session: WebAuthenticationSession) async throws {
            try await session.waitForText("would like to:")
            try await person.click("form.confirm button.positive", in: session, leavesPage: true)
        }

        /// What the person does on the development provider: user name, password, Enter; the
        /// authenticator code, a click on Verify; a click on Allow.
        static func signIn(as user: OpenIDProvider.User, person: RecordingPerson, session: WebAuthenticationSession) async throws {
            await person.waitForPage(titled: "Sign in to the development provider")
            try await person.click("#username", in: session)

            try await person.type(user.username, in: session)
            try await person.click("#password", in: session)
            try await person.type(user.password, in: session)
            try await person.press("Return", in: session)
            await person.waitForPage(titled: "Enter your authenticator code")
            try await person.click("#code", in: session)
            let code = try await OneTimeCodes.shared.next(for: TimeBasedOneTimePassword(base32Secret: user.totpSecret!))
            try await person.type(code, in: session)
            try await person.click("#verify", in: session, leavesPage: true)
            await person.waitForPage(titled: "Allow access?")
            try await person.click("#allow", in: session, leavesPage: true)
        }

        @Test("password, TOTP and consent on the development provider: recorded once, replayed headless five times", .timeLimit(.minutes(3)),
              )
        func developmentProvider() async throws {
            let provider = try await OpenIDProvider.start(users: Self.users, clients: [Self.client])
            let oidc = OpenIDConnectClient(issuer: provider.issuer, clientID: Self.client.clientID, redirectURI: try RedirectURI(Self.client.redirectURIs[0]))
            let person = RecordingPerson()
            let recorded = try await oidc.signIn(options: Self.options(recordingFor: person)) { session in
                try await Self.signIn(as: Self.users[0], person: person, session: session)
            }
            #expect(recorded.idToken.subject == Self.users[0].subject)
            let script = person.recorder.script()
            let text = script.text
            #expect(!text.contains(Self.users[0].password) && !text.contains(Self.users[0].totpSecret!), "no secret in the file:\n\(text)")
            #expect(!text.contains(Self.users[0].username), "typed text is a variable unless kept:\n\(text)")
            #expect(script.script.steps == [
                .fill("#username", .variable("username")), .fill("#password", .environment("PASSWORD")), .pressEnter("#password"),
                .fill("#code", .totp(TOTPSource(secret: .environment("TOTP_SECRET")))), .click("#verify"), .click("#allow"),
            ], "\(text)")
            #expect(script.steps.last?.oneOff == true, "the consent screen is marked:\n\(text)")
            #expect(text.contains("# Allow access?\n  # a screen that may not come back"), "\(text)")
            #expect(script.recordedVariables == ["username": Self.users[0].username])
            let file = try LoginScriptSchema.files([text])
            let reread = try LoginScript(contentsOfFile: file[0])
            #expect(reread.steps == script.script.steps, "the file reads back as the script")
            let check = try await LoginScriptSchema.check(file)
            #expect(check.status == 0, "the recorded script validates against the JSON Schema: \(check.output)")
            // The recorded user last: its next code is a time step after the one typed when recording.
            for user in Self.users.dropFirst() + [Self.users[0]] {
                var replay = reread
                replay.variables = ["username": .literal(user.username)]
                let result = try await oidc.signIn(options: TestEngine.options(), script: replay.runner(environment: [
                    "PASSWORD": user.password, "TOTP_SECRET": user.totpSecret!,
                ]))
                #expect(result.idToken.subject == user.subject)
            }
        }

        @Test("the development provider's passkey page: the prompt becomes a passkey: block; five headless replays with its credentials file")
        func passkeyPage() async throws {
            let provider = try await EngineTests.PasskeyDevProviderTests.provider()
            let passkey = VirtualAuthenticatorSettings(credentialsFile: PasskeyPages.credentialsFile())
            defer { try? FileManager.default.removeItem(atPath: passkey.credentialsFile!) }
            _ = try await EngineTests.PasskeyDevProviderTests.signIn(provider, LoginScript(EngineTests.PasskeyDevProviderTests.registration(
                "alice", passwordVariable: "PASSWORD") + [.click("#use-passkey")], passkey: passkey), environment: ["PASSWORD": "wonderland"])
            let oidc = OpenIDConnectClient(issuer: provider.issuer, clientID: "webauth-demo", redirectURI: try RedirectURI("com.example.webauth:/callback"))
            let person = RecordingPerson()
            let recorded = try await oidc.signIn(options: Self.options(recordingFor: person)) { session in
                // The person's own key, made real here by the virtual authenticator (this machine has
                // no /dev/uhid for a software FIDO2 key): the recorder must not care which key answered.
                await session.usePasskeys(passkey, secretHosts: [])
                await person.waitForPage(titled: "Sign in to the development provider")
                try await person.click("#use-passkey", in: session, leavesPage: true)
            }
            #expect(recorded.idToken.subject == OpenIDProvider.User.alice.subject)
            let script = person.recorder.script()
            #expect(script.usesPasskey && script.script.steps == [.click("#use-passkey")], "\(script.text)")
            #expect(script.text.contains("passkey:\n  credentials_file: \"passkey-credentials.json\""), "\(script.text)")
            let file = try LoginScriptSchema.files([script.text])
            #expect(try await LoginScriptSchema.check(file).status == 0)
            var replay = try LoginScript(contentsOfFile: file[0])
            replay.passkey?.credentialsFile = passkey.credentialsFile
            for _ in 1...5 {
                let result = try await oidc.signIn(options: TestEngine.options(), script: replay.runner(environment: [:]))
                #expect(result.idToken.subject == OpenIDProvider.User.alice.subject)
            }
            await provider.stop()
        }

        @Test("LemonLDAP::NG: password, its TOTP second factor and its consent recorded once; the consent made optional, five headless replays")
        func lemonLDAP() async throws {
            let provider = try await LemonLDAPProvider.shared.value
            let users = provider.totpUsers.keys.sorted()
            let oidc = OpenIDConnectClient(issuer: provider.issuer, clientID: "webauth-public", redirectURI: try RedirectURI(EngineTests.LemonLDAP.redirect))
            let person = RecordingPerson()
            let recorded = try await oidc.signIn(options: Self.options(recordingFor: person)) { session in
                try await Self.portalLogin(as: users[0], person: person, session: session)
                try await session.waitForElement("#extcode[placeholder]")
                try await person.click("#extcode", in: session)
                let code = try await OneTimeCodes.shared.next(for: TimeBasedOneTimePassword(base32Secret: provider.totpUsers[users[0]]!))
                try await person.type(code, in: session)
                try await person.click("form.password button[type=submit]", in: session, leavesPage: true)
                try await Self.portalConsent(person: person, session: session)
            }
            #expect(recorded.idToken.subject == users[0])
            let script = person.recorder.script()
            let text = script.text
            #expect(!text.contains(users[0]) && !text.contains(provider.totpUsers[users[0]]!), "no typed value, no secret in the file:\n\(text)")
            let submit = "button[type=\"submit\"]"
            // The consent's Accept button has no id, name or label, and shares its type with Refuse: its class names it.
            #expect(script.script.steps == [
                .fill("#userfield", .variable("user")), .fill("#passwordfield", .environment("PASSWORD")), .click(submit),
                .fill("#extcode", .totp(TOTPSource(secret: .environment("TOTP_SECRET")))), .click(submit), .waitForURL(containing: "/oauth2"),
                .click("button.positive"),
            ], "\(text)")
            let oneOff = Set(script.steps.indices.filter { script.steps[$0].oneOff })
            #expect(oneOff == [script.steps.count - 1], "the consent screen is marked:\n\(text)")
            // The provider remembers the consent given: the screen does not come back for this user.
            let file = try LoginScriptSchema.files([script.makingOptional(oneOff).text])
            let check = try await LoginScriptSchema.check(file)
            #expect(check.status == 0, "the recorded script validates against the JSON Schema: \(check.output)")
            let reread = try LoginScript(contentsOfFile: file[0])
            let variable = try #require(script.recordedVariables.first { $0.value == users[0] }?.key, "\(script.recordedVariables)")
            let environment = script.requirements.filter(\.isEnvironment).map(\.name)
            #expect(environment == ["PASSWORD", "TOTP_SECRET"], "\(environment)")
            // The recorded user last: its next code is a time step after the one typed when recording.
            for user in users.dropFirst() + [users[0]] {
                var replay = reread
                replay.variables = [variable: .literal(user)]
                let result = try await oidc.signIn(options: TestEngine.options(), script: replay.runner(environment: [
                    "PASSWORD": user, "TOTP_SECRET": provider.totpUsers[user]!,
                ]))
                #expect(result.idToken.subject == user)
            }
        }

        @Test("LemonLDAP::NG: password and its WebAuthn second factor recorded once (the key prompt becomes a passkey: block); five headless replays")
        func lemonLDAPWebAuthn() async throws {
            let provider = try await LemonLDAPProvider.shared.value
            let user = "ianchesterton"
            let passkey = VirtualAuthenticatorSettings(credentialsFile: PasskeyPages.credentialsFile())
            defer { try? FileManager.default.removeItem(atPath: passkey.credentialsFile!) }
            try await EngineTests.LemonLDAP.registerKey(of: user, in: passkey, on: provider)
            let oidc = OpenIDConnectClient(issuer: provider.issuer, clientID: "webauth-public", redirectURI: try RedirectURI(EngineTests.LemonLDAP.redirect))
            let person = RecordingPerson()
            let recorded = try await oidc.signIn(options: Self.options(recordingFor: person)) { session in
                // The person's own key, made real by the virtual authenticator, as on the passkey page above.
                await session.usePasskeys(passkey, secretHosts: [])
                try await Self.portalLogin(as: user, person: person, session: session)
                // The portal asks for the key by itself and posts its answer; then its consent.
                try await Self.portalConsent(person: person, session: session)
            }
            #expect(recorded.idToken.subject == user)
            let script = person.recorder.script()
            let text = script.text
            #expect(!text.contains(user), "no typed value in the file:\n\(text)")
            #expect(script.usesPasskey && text.contains("passkey:\n  credentials_file: \"passkey-credentials.json\""), "\(text)")
            let submit = "button[type=\"submit\"]"
            #expect(script.script.steps == [
                .fill("#userfield", .variable("user")), .fill("#passwordfield", .environment("PASSWORD")), .click(submit),
                .waitForURL(containing: "/oauth2"), .click("button.positive"),
            ], "\(text)")
            let oneOff = Set(script.steps.indices.filter { script.steps[$0].oneOff })
            #expect(oneOff == [script.steps.count - 1], "the consent screen is marked:\n\(text)")
            let file = try LoginScriptSchema.files([script.makingOptional(oneOff).text])
            #expect(try await LoginScriptSchema.check(file).status == 0)
            var replay = try LoginScript(contentsOfFile: file[0])
            replay.passkey?.credentialsFile = passkey.credentialsFile
            replay.variables = ["user": .literal(user)]
            for _ in 1...5 {
                let result = try await oidc.signIn(options: TestEngine.options(), script: replay.runner(environment: ["PASSWORD": user]))
                #expect(result.idToken.subject == user)
            }
            #expect(try VirtualAuthenticator(settings: passkey).credentials.first?.signCount == 6, "the key signed the recording and each replay")
        }

        @Test("the React 18 page: the button the page enabled late is waited for, Enter and clicks are trusted only; five headless replays")
        func reactPage() async throws {
            let site = try await TestSite.start()
            let person = RecordingPerson()
            let callback = try await Self.record(try EngineTests.ReactLogin.page(on: site), person: person) { session in
                await person.waitForPage(titled: "React sign-in")
                try await person.click("#user", in: session)
                try await person.type("alice", in: session)
                try await person.click("#password", in: session)
                try await person.type("s3cret pass", in: session)
                // The page's own untrusted click and event are not the person's.
                _ = try await session.evaluateJavaScript("document.getElementById('user').click(); document.body.dispatchEvent(new MouseEvent('click', {bubbles: true})); true")
                try await person.click("#submit", in: session, leavesPage: true)
            }
            #expect(callback["user"] == "alice")
            let recorded = person.recorder.script(options: RecordingOptions(keepValues: true))
            #expect(recorded.script.steps == [.fill("#user", .literal("alice")), .fill("#password", .environment("PASSWORD")),
                                              .waitForEnabled("#submit"), .click("#submit")], "\(recorded.text)")
            let check = try await LoginScriptSchema.check(try LoginScriptSchema.files([recorded.text]))
            #expect(check.status == 0, "\(check.output)")
            for _ in 1...5 {
                let replay = try TestEngine.session(try EngineTests.ReactLogin.page(on: site), redirectURI: "com.example:/cb")
                let run = Task { try await recorded.script.run(in: replay, environment: ["PASSWORD": "s3cret pass"]) }
                let result = try await replay.start()
                try await run.value
                #expect(result["user"] == "alice" && result["password"] == "s3cret pass" && result["trusted"] == "true")
            }
        }

        @Test("a field whose page moves the focus while a key is down (a code split over one-character boxes) is typed, not filled")
        func splitCode() async throws {
            let site = try await TestSite.start()
            let page = site.page(title: "Split code", body: """
                <form onsubmit="event.preventDefault(); location.href = 'com.example:/cb?code=' + [...document.querySelectorAll('.box')].map((b) => b.value).join('')">
                \((1...6).map { "<input class='box' maxlength='1' inputmode='numeric' aria-label='Digit \($0)'>" }.joined())
                <button id='go'>Go</button></form>
                <script>
                document.querySelectorAll('.box').forEach((box) => box.addEventListener('input', () => {
                    if (box.value && box.nextElementSibling && box.nextElementSibling.classList.contains('box')) box.nextElementSibling.focus();
                }));
                </script>
                """)
            let person = RecordingPerson()
            let callback = try await Self.record(page, person: person) { session in
                await person.waitForPage(titled: "Split code")
                try await person.click("[aria-label=\"Digit 1\"]", in: session)
                try await person.type("123456", in: session)
                try await person.click("#go", in: session, leavesPage: true)
            }
            #expect(callback["code"] == "123456")
            let recorded = person.recorder.script(options: RecordingOptions(keepValues: true))
            #expect(recorded.script.steps == [.type("input[aria-label=\"Digit 1\"]", .literal("123456")), .click("#go")], "\(recorded.text)")
            let replay = try TestEngine.session(page, redirectURI: "com.example:/cb")
            let run = Task { try await recorded.script.run(in: replay) }
            #expect(try await replay.start()["code"] == "123456")
            try await run.value
        }
    }
}
