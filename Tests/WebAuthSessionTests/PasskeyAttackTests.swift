import Foundation
import OpenIDConnect
import Testing
import WebAuthn
@testable import WebAuthSession

extension EngineTests {
    /// A page's attacks on the engine's WebAuthn: the origin in what the engine signs
    /// is the one WebKit committed for the top-level document, whatever the page's script redefines,
    /// forges or asks from a frame. Each test also checks what the authenticator did: nothing
    /// beyond what the top document legitimately asked.
    @Suite("Passkeys: attacks from the page", .serialized)
    struct PasskeyAttackTests {
        /// A site on localhost with a credential registered on it; its file and the running session.
        struct Registered {
            let session: WebAuthenticationSession
            let started: Task<RedirectCallback, any Error>
            let recorder: EventRecorder
            let file: String

            /// The signature count of the one credential in the file.
            var signCount: UInt32 {
                get throws { try #require(try VirtualAuthenticator(settings: .init(credentialsFile: file)).credentials.first).signCount }
            }

            func end() async {
                session.cancel()
                _ = await started.result
                try? FileManager.default.removeItem(atPath: file)
                try? FileManager.default.removeItem(atPath: file + ".lock")
            }
        }

        static func registered(at url: URL) async throws -> Registered {
            let file = PasskeyPages.credentialsFile()
            let (session, started, recorder) = try await PasskeyPageTests.session(url, passkey: VirtualAuthenticatorSettings(credentialsFile: file))
            _ = try await session.awaitInPage("await navigator.credentials.create(\(PasskeyPages.creation())); return true;")
            return Registered(session: session, started: started, recorder: recorder, file: file)
        }

        @Test("a cross-origin iframe gets NotAllowedError, has no channel to post to, cannot reach the top document, and nothing is signed for it")
        func crossOriginFrame() async throws {
            let other = try await TestSite.start(host: "127.0.0.1")
            let frame = other.page(title: "Frame", body: """
                <script>
                (async () => {
                    const results = {};
                    try { await navigator.credentials.get({ publicKey: { challenge: new Uint8Array(32), rpId: 'localhost' } }); results.get = 'signed'; }
                    catch (e) { results.get = e.name; }
                    results.handler = !!(window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.webauthsessionPasskey);
                    document.dispatchEvent(new CustomEvent('webauthsession-passkey-request',
                        { detail: JSON.stringify({ kind: 'get', id: 99, options: { challenge: 'AAAA' } }) }));
                    try { window.top.document.dispatchEvent(new CustomEvent('webauthsession-passkey-request')); results.top = 'reached'; }
                    catch (e) { results.top = e.name; }
                    parent.postMessage(results, '*');
                })();
                </script>
                """)
            let site = try await TestSite.start(host: "localhost")
            let registered = try await Self.registered(at: site.page(body: "<p>top</p>"))
            let results = try await registered.session.awaitInPage("""
                return await new Promise((resolve) => {
                    addEventListener('message', (event) => resolve(event.data));
                    document.body.insertAdjacentHTML('beforeend', '<iframe src="\(frame.absoluteString)"></iframe>');
                });
                """)
            #expect(results["get"] == .string("NotAllowedError"))
            #expect(results["handler"] == .bool(false), "the engine's channel exists in its isolated world only")
            #expect(results["top"] == .string("SecurityError"))
            // The top document's own request, after the frame's attempts, is the only one signed.
            _ = try await registered.session.awaitInPage("await navigator.credentials.get(\(PasskeyPages.request())); return true;")
            #expect(try registered.signCount == 1)
            #expect(await PasskeyPageTests.passkeyEvents(registered.recorder).count == 2, "the registration and the top document's sign-in")
            await registered.end()
        }

        @Test("the page cannot change the origin the engine signs: redefining location and document.domain, forging the request event")
        func pageWorldForgery() async throws {
            let site = try await TestSite.start(host: "localhost")
            let registered = try await Self.registered(at: site.page(body: "<p>page</p>"))
            let answer = try await registered.session.awaitInPage("""
                const tried = {};
                try { Object.defineProperty(window, 'location', { get: () => ({ origin: 'https://bank.example', hostname: 'bank.example' }) }); tried.location = 'redefined'; }
                catch (e) { tried.location = e.name; }
                try { Object.defineProperty(Location.prototype, 'origin', { get: () => 'https://bank.example' }); tried.prototype = 'redefined'; }
                catch (e) { tried.prototype = e.name; }
                try { document.domain = 'localhost'; tried.domain = 'set'; } catch (e) { tried.domain = e.name; }
                tried.handler = !!(window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.webauthsessionPasskey);
                // A forged request naming another origin and relying party: the bridge writes the origin itself.
                const forged = await new Promise((resolve) => {
                    document.addEventListener('webauthsession-passkey-answer', (event) => {
                        const answer = JSON.parse(event.detail);
                        if (answer.id === 7777) resolve(answer);
                    });
                    document.dispatchEvent(new CustomEvent('webauthsession-passkey-request', { detail: JSON.stringify({
                        kind: 'get', id: 7777, origin: 'https://bank.example', options: { challenge: b64(bytes(32, 3)), rpId: 'bank.example' } }) }));
                });
                const otherParty = await attempt(() => navigator.credentials.get(\(PasskeyPages.request(rpID: "bank.example"))));
                const own = await navigator.credentials.get(\(PasskeyPages.request()));
                return { tried, forged, otherParty, clientData: new TextDecoder().decode(own.response.clientDataJSON) };
                """)
            #expect(answer["tried"]?["location"] == .string("TypeError"))
            #expect(answer["tried"]?["handler"] == .bool(false))
            #expect(answer["forged"]?["error"]?["name"] == .string("SecurityError"), "the forged event is a request like any other, from the page's own origin")
            #expect(answer["otherParty"]?["error"] == .string("SecurityError"))
            let clientData = try CollectedClientData(json: Data(try #require(answer["clientData"]?.stringValue).utf8))
            #expect(clientData.origin == site.server.baseURL.absoluteString, "WebKit's committed origin, whatever the page redefined")
            #expect(try registered.signCount == 1, "only the page's own request was signed")
            await registered.end()
        }

        @Test("a request whose origin is not the committed document's (one that crossed a navigation) is refused")
        func staleOrigin() async throws {
            let site = try await TestSite.start(host: "localhost")
            let registered = try await Self.registered(at: site.page(body: "<p>page</p>"))
            // Posted from the engine's own isolated world, as the bridge would for a document that is gone.
            let answer = try await registered.session.awaitInPage("""
                const answer = await window.webkit.messageHandlers.webauthsessionPasskey.postMessage(JSON.stringify({
                    kind: 'get', id: 1, origin: 'http://localhost:1', options: { challenge: b64(bytes(32, 2)) } }));
                return JSON.parse(answer);
                """, world: .isolated)
            #expect(answer["error"]?["name"] == .string("NotAllowedError"))
            #expect(try registered.signCount == 0)
            await registered.end()
        }

        @Test("a page on an IP address, or on plain http other than localhost, is no relying party: SecurityError, nothing made")
        func insecureOrigins() async throws {
            let site = try await TestSite.start(host: "127.0.0.1")
            let file = PasskeyPages.credentialsFile()
            defer { try? FileManager.default.removeItem(atPath: file) }
            let (session, started, _) = try await PasskeyPageTests.session(site.page(body: "<p>ip</p>"),
                                                                          passkey: VirtualAuthenticatorSettings(credentialsFile: file))
            let answer = try await session.awaitInPage("""
                return { own: await attempt(() => navigator.credentials.create(\(PasskeyPages.creation()))),
                         localhost: await attempt(() => navigator.credentials.get(\(PasskeyPages.request(rpID: "localhost")))) };
                """)
            #expect(answer["own"]?["error"] == .string("SecurityError"))
            #expect(answer["localhost"]?["error"] == .string("SecurityError"))
            #expect(!FileManager.default.fileExists(atPath: file), "no credential was made")
            session.cancel()
            _ = await started.result
        }

        @Test("the virtual authenticator signs only for the provider's hosts: a page elsewhere ends the sign-in with the gate's refusal")
        func otherHostThanProvider() async throws {
            let provider = try await TestSite.start(host: "localhost")
            let file = PasskeyPages.credentialsFile()
            defer { try? FileManager.default.removeItem(atPath: file) }
            // The session starts at 127.0.0.1 (the provider's host for the gate) and the page moves to localhost.
            let start = provider.page(body: "<p>moved</p>")
            let first = try await TestSite.start(host: "127.0.0.1")
            let entry = first.serve(.redirect(to: start.absoluteString))
            let (session, started, _) = try await PasskeyPageTests.session(entry, passkey: VirtualAuthenticatorSettings(credentialsFile: file))
            try await session.waitForURL { $0.hasPrefix(provider.server.baseURL.absoluteString) }
            #expect(try await session.awaitInPage("return await PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable();") == .bool(false),
                    "a page the script's key does not serve learns nothing of it")
            _ = try? await session.awaitInPage("await navigator.credentials.create(\(PasskeyPages.creation())); return true;", timeout: .seconds(10))
            await #expect { try await started.value } throws: { error in
                guard case .secretRefused(let refusal) = error as? WebAuthenticationError, case .hostNotAllowed = refusal.reason else { return false }
                return true
            }
            #expect(!FileManager.default.fileExists(atPath: file), "no credential was made for a host the script did not allow")
        }
    }
}
