import CWebKitGTK
import DevProvider
import Foundation
import OpenIDConnect
import Synchronization
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// The kiosk a visitor sees and uses, driven like a person: xdotool's pointer on
    /// the private Xvfb (XTEST) and a window manager's close request. Each step waits on the
    /// kiosk's or the page's events.
    @Suite("Kiosk visitor")
    struct KioskVisitor {
        /// The next visitor of `kiosk`, who signs in as alice (by a login script) once the start screen is pressed.
        static func aliceVisits(_ kiosk: KioskStation) -> Task<SignInResult, any Error> {
            Task {
                try await kiosk.nextVisitor { session in
                    try await LoginScript([.fill("#username", .literal("alice")), .fill("#password", .environment("RIGHT")), .click("#sign-in")])
                        .run(in: session, environment: ["RIGHT": OpenIDProvider.User.alice.password])
                }
            }
        }

        /// A kiosk for `provider`'s demo client on the private Xvfb, with a title, the test logo and
        /// a blue accent colour.
        static func brandedKiosk(_ provider: OpenIDProvider, title: String, language: String? = nil) async throws -> KioskStation {
            let client = OpenIDConnectClient(issuer: provider.issuer, clientID: "webauth-demo",
                                             redirectURI: try RedirectURI("com.example.webauth:/callback"))
            _ = TestEngine.options()  // the private Xvfb
            let kiosk = await KioskStation(client: client)
            await Task { @WebKitActor in
                kiosk.settings.language = language
                kiosk.settings.title = title
                kiosk.settings.logo = KioskPictures.logo()
                kiosk.settings.accentColor = "#0b5cad"
            }.value
            return kiosk
        }

        static func kioskOptions(idle: Duration = .seconds(120), _ change: (inout KioskSettings) -> Void = { _ in }) -> WebAuthenticationOptions {
            var settings = KioskSettings(allowedHosts: [], idleTimeout: idle)
            change(&settings)
            var options = TestEngine.options(.kiosk(settings))
            options.websiteData = .ephemeral
            return options
        }

        /// Taps the text field `selector` and waits until the touch keyboard has taken its place
        /// under the page (the page gets shorter: its resize event).
        static func tapField(_ selector: String, in session: WebAuthenticationSession, recorder: EventRecorder) async throws {
            // The page marks its body once it is shorter than now (its resize event), and the test
            // waits on that mark: evaluateJavaScript does not await a promise.
            try await session.evaluateJavaScript("""
                (() => { const full = window.innerHeight; delete document.body.dataset.keyboardShown;
                         addEventListener('resize', () => { if (window.innerHeight < full) document.body.dataset.keyboardShown = 'yes' }) })(); null
                """)
            let field = try await XInput.screenPoint(of: selector, in: session)
            try await XInput.click(x: field.x, y: field.y)
            #expect(await recorder.first { $0 == .touchKeyboard(shown: true) } == .touchKeyboard(shown: true))
            try await session.waitForElement("body[data-keyboard-shown]")  // the keyboard took the bottom of the window
        }

        @Test("a right click shows no context menu and a click on a file input opens no chooser: both refused and logged")
        func contextMenuAndFileChooserRefused() async throws {
            let site = try await TestSite.start()
            let page = site.page(body: """
                <p id='text' style='font-size:48px'>Right-click here</p>
                <input type='file' id='file' style='width:400px;height:80px'>
                """)
            let session = try TestEngine.session(page, redirectURI: "com.example:/cb", options: Self.kioskOptions())
            let recorder = EventRecorder(session)
            let run = Task { try await session.start() }
            defer { session.cancel() }
            try await session.waitForElement("#file")
            let text = try await XInput.screenPoint(of: "#text", in: session)
            try await XInput.click(x: text.x, y: text.y, button: 3)
            let menu = await recorder.first { if case .contextMenuRefused = $0 { true } else { false } }
            #expect(menu == .contextMenuRefused(url: page.absoluteString))
            let file = try await XInput.screenPoint(of: "#file", in: session)
            try await XInput.click(x: file.x, y: file.y)
            let chooser = await recorder.first { if case .fileChooserRefused = $0 { true } else { false } }
            #expect(chooser == .fileChooserRefused(url: page.absoluteString))
            let otherWindows = await Task { @WebKitActor () -> Int in
                let toplevels = gtk_window_list_toplevels()
                defer { g_list_free(toplevels) }
                var count = 0
                var node = toplevels
                while let current = node {
                    let window = current.pointee.data.assumingMemoryBound(to: GtkWidget.self)
                    if window != session.page?.window, gtk_widget_get_visible(window) != 0 { count += 1 }
                    node = current.pointee.next
                }
                return count
            }.value
            #expect(otherWindows == 0, "no menu and no file chooser window is on screen")
            try await session.evaluateJavaScript("location.href = 'com.example:/cb?still=usable'")
            #expect(try await run.value["still"] == "usable")
            let log = await session.navigationLog
            #expect(log.contains { $0.kind == .contextMenuRefused && $0.value == page.absoluteString })
            #expect(log.contains { $0.kind == .fileChooserRefused && $0.value == page.absoluteString })
        }

        @Test("the kiosk bar shows the host and lock, hides progress once loaded, and A− / A+ change the page's text size")
        func barAndZoom() async throws {
            let site = try await TestSite.start()
            let page = site.page(body: "<p id='p'>Text</p>")
            let session = try TestEngine.session(page, redirectURI: "com.example:/cb",
                                                 options: Self.kioskOptions { $0.zoom = 1.2; $0.language = "fr" })
            let recorder = EventRecorder(session)
            let run = Task { try await session.start() }
            defer { session.cancel() }
            try await session.waitForElement("#p")
            _ = await recorder.firstLoadFinished()
            let seen = await Task { @WebKitActor () -> (host: String, security: PageOrigin.Security, progress: Bool, zooms: [Double], label: String) in
                let frame = session.page!.kioskFrame!
                let bar = frame.bar!
                var zooms = [frame.zoom]
                gtk_button_clicked(cwk_button(bar.largerButton))
                zooms.append(frame.zoom)
                gtk_button_clicked(cwk_button(bar.smallerButton))
                gtk_button_clicked(cwk_button(bar.smallerButton))
                zooms.append(frame.zoom)
                let label = gtk_button_get_label(cwk_button(bar.startOverButton)).map { String(cString: $0) } ?? ""
                return (bar.origin.host, bar.origin.security, bar.isShowingProgress, zooms, label)
            }.value
            #expect(seen.host == "127.0.0.1")
            #expect(seen.security == .notEncrypted)
            #expect(!seen.progress, "no progress once the page has loaded")
            #expect(seen.zooms.map { ($0 * 10).rounded() / 10 } == [1.2, 1.3, 1.1])
            #expect(seen.label == "Recommencer", "the bar speaks the configured language")
            session.cancel()
            _ = await run.result
        }

        @Test("a screen reader hears what the bar's A− / A+, its lock and the touch keyboard's symbol keys do, not their symbols")
        func accessibleNames() async throws {
            let site = try await TestSite.start()
            let session = try TestEngine.session(site.page(body: "<p id='p'>Text</p>"), redirectURI: "com.example:/cb",
                                                 options: Self.kioskOptions { $0.language = "fr" })
            let recorder = EventRecorder(session)
            let run = Task { try await session.start() }
            defer { session.cancel() }
            try await session.waitForElement("#p")
            _ = await recorder.firstLoadFinished()
            let names = await Task { @WebKitActor () -> [String] in
                let frame = session.page!.kioskFrame!
                let widgets = [frame.bar!.smallerButton, frame.bar!.largerButton, frame.keyboard!.button(for: .backspace)!,
                               frame.keyboard!.button(for: .enter)!]
                let lock = KioskPictures.descendants(of: frame.bar!.origin.box).first { KioskPictures.typeName(of: $0) == "GtkImage" }!
                return (widgets + [lock]).map { atk_object_get_name(gtk_widget_get_accessible($0)).map { String(cString: $0) } ?? "" }
            }.value
            #expect(names == ["Texte plus petit", "Texte plus grand", "Backspace", "Enter", "Connection not encrypted"])
            session.cancel()
            _ = await run.result
        }

        @Test("with a keyboard alone: the start screen's button has the focus, drawn, and Return signs the visitor in")
        func startScreenByKeyboard() async throws {
            let provider = try await OpenIDProvider.start()
            let kiosk = try await Self.brandedKiosk(provider, title: "Library", language: "en")
            let events = kiosk.events
            let visitor = Self.aliceVisits(kiosk)
            defer { visitor.cancel() }
            var iterator = events.makeAsyncIterator()
            _ = await iterator.next()  // the start screen
            let focus = await Task { @WebKitActor () -> (focused: Bool, visible: Bool) in
                let button = kiosk.startScreen!.button!
                gdk_display_sync(gdk_display_get_default())
                return (gtk_widget_is_focus(button) != 0, gtk_window_get_focus_visible(cwk_window(gtk_widget_get_toplevel(button))) != 0)
            }.value
            #expect(focus.focused, "the button has the keyboard focus")
            #expect(focus.visible, "the focus is drawn")
            let window = try await XInput.window { kiosk.startScreen?.button }
            try await XInput.key("Return", window: window)
            #expect(try await visitor.value.idToken.subject == OpenIDProvider.User.alice.subject)
        }

        @Test("the idle warning counts down over the page; a tap dismisses it and does not reach the page")
        func idleWarningDismissedByTap() async throws {
            let site = try await TestSite.start()
            let page = site.page(body: """
                <button id='b' style='position:fixed;left:0;top:0;width:100%;height:100%' onclick='window.clicks = (window.clicks || 0) + 1'>page</button>
                """)
            // The warning shows 2 s after the last input, 58 s before the reset.
            let session = try TestEngine.session(page, redirectURI: "com.example:/cb",
                                                 options: Self.kioskOptions(idle: .seconds(60)) { $0.idleWarning = .seconds(58) })
            let recorder = EventRecorder(session)
            let run = Task { try await session.start() }
            defer { session.cancel() }
            try await session.waitForElement("#b")
            let shown = await recorder.first { if case .idleWarningShown = $0 { true } else { false } }
            guard case .idleWarningShown(let seconds)? = shown else { Issue.record("no idle warning: \(String(describing: shown))"); return }
            #expect((1...58).contains(seconds))
            let text = await Task { @WebKitActor in (session.page?.kioskFrame?.idleWarning?.layer).map(KioskPictures.texts(in:)) ?? [] }.value
            #expect(text.contains { $0.hasPrefix("Still there? Starting over in ") && $0.hasSuffix(" s") }, "\(text)")
            KioskPictures.saveForReadme(try await session.screenshot(of: .window), "kiosk-idle")
            try await XInput.click { session.page?.kioskFrame?.idleWarning?.layer }
            #expect(await recorder.first { $0 == .idleWarningDismissed } == .idleWarningDismissed)
            #expect(await Task { @WebKitActor in session.page?.kioskFrame?.idleWarning?.secondsLeft == nil }.value)
            #expect(try await session.evaluateJavaScript("window.clicks || 0") == .number(0), "the tap went to the warning, not the page")
            session.cancel()
            _ = await run.result
        }

        @Test("the start screen, in French with a logo, title and accent colour, survives a WM_DELETE_WINDOW close request; a click signs the visitor in")
        func brandedStartScreenSurvivesCloseRequest() async throws {
            let provider = try await OpenIDProvider.start()
            let kiosk = try await Self.brandedKiosk(provider, title: "Bibliothèque municipale", language: "fr")
            let events = kiosk.events
            let visitor = Self.aliceVisits(kiosk)
            defer { visitor.cancel() }
            var iterator = events.makeAsyncIterator()
            let first = await iterator.next()
            #expect(first == .startScreen(message: "Bienvenue. Connectez-vous pour continuer."))
            let screen = await Task { @WebKitActor () -> (texts: [String], images: Int, accent: PNGImage?, picture: Data) in
                let button = kiosk.startScreen!.button!
                let window = gtk_widget_get_toplevel(button)!
                let texts = KioskPictures.texts(in: window) + [gtk_button_get_label(cwk_button(button)).map { String(cString: $0) } ?? ""]
                let images = KioskPictures.descendants(of: window).count { KioskPictures.typeName(of: $0) == "GtkImage" }
                return (texts, images, PNGImage(KioskPictures.png(of: button)), KioskPictures.png(of: window))
            }.value
            KioskPictures.saveForReadme(screen.picture, "kiosk-start")
            #expect(screen.texts.contains("Bibliothèque municipale"))
            #expect(screen.texts.contains("Se connecter"))
            #expect(screen.images == 1, "the logo")
            let accent = try #require(screen.accent)
            #expect(accent.count(0x0b5cad) > accent.width * accent.height / 2, "the button wears the accent colour")
            #expect(try await XInput.requestClose(title: "Se connecter") == 1)
            #expect(await iterator.next() == .closeRefused)
            let kept = await Task { @WebKitActor () -> Bool in
                guard let button = kiosk.startScreen?.button else { return false }
                return gtk_widget_get_visible(gtk_widget_get_toplevel(button)) != 0
            }.value
            try #require(kept, "the start screen is still shown after the close request")
            try await XInput.click { kiosk.startScreen?.button }
            #expect(try await visitor.value.idToken.subject == OpenIDProvider.User.alice.subject)
            #expect(provider.languagesAsked.last?.uiLocales == "fr", "the provider's page is asked for the kiosk's language")
        }

        @Test("Start over on the kiosk bar, clicked like a person: back to the start screen, and the next visitor finds none of the last one's cookies")
        func startOverResets() async throws {
            let provider = try await OpenIDProvider.start()
            let kiosk = try await Self.brandedKiosk(provider, title: "City Library")
            let visitors = Visitors()
            let cookies = Mutex<[String]>([])
            let script: @Sendable (WebAuthenticationSession) async throws -> Void = { session in
                let visitor = visitors.next()
                try await session.waitForElement("#username")
                let found = try await session.evaluateJavaScript("const found = document.cookie; document.cookie = 'visitor=\(visitor); max-age=3600'; found")
                cookies.withLock { $0.append(found.stringValue ?? "") }
                if visitor == 1 {
                    #expect(try await session.evaluateJavaScript("document.cookie").stringValue?.contains("visitor=1") == true)
                    KioskPictures.saveForReadme(try await session.screenshot(of: .window), "kiosk-bar")
                    try await XInput.click { session.page?.kioskFrame?.bar?.startOverButton }
                } else {
                    try await LoginScript([.fill("#username", .literal("alice")), .fill("#password", .environment("RIGHT")), .click("#sign-in")])
                        .run(in: session, environment: ["RIGHT": OpenIDProvider.User.alice.password])
                }
            }
            let events = kiosk.events
            let presser = Task {
                var seen: [KioskStation.Event] = []
                for await event in events {
                    seen.append(event)
                    if case .startScreen = event { try await XInput.click { kiosk.startScreen?.button } }
                    if event == .signedIn { break }
                }
                return seen
            }
            let result = try await kiosk.nextVisitor(script: script)
            #expect(result.idToken.subject == OpenIDProvider.User.alice.subject)
            let seen = try await presser.value
            let startAgain = await kiosk.startAgain
            #expect(seen == [.startScreen(message: await kiosk.welcome), .signInStarted, .reset(.closedByUser),
                             .startScreen(message: startAgain), .signInStarted, .signedIn])
            let found = cookies.withLock { $0 }
            #expect(found.count == 2)
            #expect(found.allSatisfy { !$0.contains("visitor=") }, "each visitor found no visitor cookie: \(found)")
        }

        /// A page with a React-controlled username field (React 18 from Debian's node-react) that
        /// mirrors its state into `#seen`, and a password field.
        static func reactPage(_ site: TestSite) throws -> URL {
            func script(_ path: String) throws -> URL {
                let source = try String(contentsOfFile: path, encoding: .utf8)
                return site.serve(LocalHTTPResponse(status: 200, headers: ["Content-Type": "text/javascript"], body: source))
            }
            let react = try script("/usr/share/nodejs/react/umd/react.production.min.js")
            let reactDOM = try script("/usr/share/nodejs/react-dom/umd/react-dom.production.min.js")
            return site.page(head: "<script src='\(react.absoluteString)'></script><script src='\(reactDOM.absoluteString)'></script>", body: """
                <div id='root'></div><p>Password <input id='password' type='password' style='font-size:32px'></p>
                <script>
                function Form() {
                  const [name, setName] = React.useState('');
                  return React.createElement('div', null,
                    React.createElement('input', {id: 'name', value: name, onChange: (e) => setName(e.target.value), style: {fontSize: '32px'}}),
                    React.createElement('p', {id: 'seen'}, 'React state: ' + name));
                }
                ReactDOM.createRoot(document.getElementById('root')).render(React.createElement(Form));
                </script>
                """)
        }

        /// The second way: a login form submitted with its field focused left the
        /// keyboard on the next page (the demo's consent page), which has no text field.
        @Test("the touch keyboard appears when a text field is tapped and goes away when the focus leaves it: a tap outside, or the page going away",
              arguments: [false, true])
        func touchKeyboardFollowsFocus(pageGoesAway: Bool) async throws {
            let site = try await TestSite.start()
            let next = site.page(body: "<h1 id='consent'>Allow access?</h1><button id='allow'>Allow</button>")
            let page = pageGoesAway ? site.page(body: "<form action=\(js(next.absoluteString)) method='get'><input id='name' name='name'></form>")
                : try Self.reactPage(site)
            let session = try TestEngine.session(page, redirectURI: "com.example:/cb", options: Self.kioskOptions())
            let recorder = EventRecorder(session)
            let run = Task { try await session.start() }
            defer { session.cancel() }
            try await session.waitForElement("#name")
            let keyboardShowing = { await Task { @WebKitActor in session.page?.kioskFrame?.keyboard?.isShowing }.value }
            #expect(await keyboardShowing() == false, "no field has focus yet")
            try await Self.tapField("#name", in: session, recorder: recorder)
            #expect(await keyboardShowing() == true)
            if pageGoesAway {
                try await session.evaluateJavaScript("document.querySelector('form').submit(); null")
                try await session.waitForElement("#consent")
            } else {
                let outside = try await XInput.screenPoint(of: "#seen", in: session)
                try await XInput.click(x: outside.x, y: outside.y)
            }
            #expect(await recorder.first { $0 == .touchKeyboard(shown: false) } == .touchKeyboard(shown: false))
            #expect(await keyboardShowing() == false)
            try await session.evaluateJavaScript("location.href = 'com.example:/cb?done=1'")
            _ = try await run.value
        }

        @Test("the touch keyboard types into a React-controlled field and a password field, and logs no key")
        func touchKeyboardTypesIntoReact() async throws {
            let site = try await TestSite.start()
            let page = try Self.reactPage(site)
            let session = try TestEngine.session(page, redirectURI: "com.example:/cb", options: Self.kioskOptions())
            let recorder = EventRecorder(session)
            let run = Task { try await session.start() }
            defer { session.cancel() }
            try await session.waitForElement("#name")
            try await Self.tapField("#name", in: session, recorder: recorder)
            for character in "alice" {
                try await XInput.click { session.page?.kioskFrame?.keyboard?.button(for: .character(character)) }
            }
            try await session.waitForText("React state: alice")
            KioskPictures.saveForReadme(try await session.screenshot(of: .window), "kiosk-keyboard")
            // The click and each key reach the page after xdotool returns: the page marks its body
            // when the field has the focus and as keys arrive, so the test waits on those mutations.
            try await session.evaluateJavaScript("""
                const field = document.getElementById('password');
                field.addEventListener('focus', () => document.body.dataset.passwordFocused = 'yes');
                field.addEventListener('input', () => document.body.dataset.passwordLength = field.value.length); null
                """)
            let password = try await XInput.screenPoint(of: "#password", in: session)
            try await XInput.click(x: password.x, y: password.y)
            try await session.waitForElement("body[data-password-focused]")
            for character in "zebra" {
                try await XInput.click { session.page?.kioskFrame?.keyboard?.button(for: .character(character)) }
            }
            try await session.waitForElement("body[data-password-length='5']")
            #expect(try await session.evaluateJavaScript("document.getElementById('password').value") == .string("zebra"))
            try await session.evaluateJavaScript("location.href = 'com.example:/cb?done=1'")
            _ = try await run.value
            let log = await session.navigationLog.map(\.description).joined(separator: "\n")
            let events = await recorder.all().map { "\($0)" }.joined(separator: "\n")
            #expect(!log.contains("zebra") && !events.contains("zebra"), "the password's keys appear in no log")
        }
    }
}
