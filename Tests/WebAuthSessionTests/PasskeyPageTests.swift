import Foundation
import OpenIDConnect
import Testing
import WebAuthn
@testable import WebAuthSession

extension EngineTests {
    /// WebAuthn in the real WebKitGTK, which has none of its own: the page's API, the
    /// login script's virtual authenticator, what a page without one sees, and the origin the engine
    /// takes from WebKit, whatever the page does.
    @Suite("Passkeys on the page", .serialized)
    struct PasskeyPageTests {
        /// A headless session at `url` whose login script gives it `passkey` (and no steps), started.
        static func session(_ url: URL, passkey: VirtualAuthenticatorSettings?,
                            presentation: WebAuthenticationOptions.Presentation = .headless) async throws
            -> (WebAuthenticationSession, Task<RedirectCallback, any Error>, EventRecorder) {
            let session = try TestEngine.session(url, redirectURI: "com.example:/cb", options: TestEngine.options(presentation))
            let recorder = EventRecorder(session)
            let started = Task { try await session.start() }
            if let passkey { try await LoginScript([], settleTimeout: nil, passkey: passkey).run(in: session) }
            return (session, started, recorder)
        }

        static func passkeyEvents(_ recorder: EventRecorder) async -> [WebAuthenticationEvent] {
            await recorder.events.filter { if case .passkey = $0 { true } else { false } }
        }

        @Test("a login script's passkey registers a credential on the page, then signs in with it; the relying party verifies both")
        func registerThenSignIn() async throws {
            let site = try await TestSite.start(host: "localhost")
            let url = site.page(title: "Passkeys", body: "<p>passkeys</p>")
            let file = PasskeyPages.credentialsFile()
            defer { try? FileManager.default.removeItem(atPath: file); try? FileManager.default.removeItem(atPath: file + ".lock") }
            let (session, started, recorder) = try await Self.session(url, passkey: VirtualAuthenticatorSettings(credentialsFile: file))
            let made = try await session.awaitInPage("""
                const available = await PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable();
                const credential = await navigator.credentials.create(\(PasskeyPages.creation()));
                return { json: credential.toJSON(), available, conditional: await PublicKeyCredential.isConditionalMediationAvailable(),
                         isCredential: credential instanceof PublicKeyCredential,
                         isAttestation: credential.response instanceof AuthenticatorAttestationResponse,
                         tag: Object.prototype.toString.call(credential), rawIdMatches: b64(credential.rawId) === credential.id,
                         spki: credential.response.getPublicKey().byteLength, algorithm: credential.response.getPublicKeyAlgorithm(),
                         extensions: credential.getClientExtensionResults(), transports: credential.response.getTransports() };
                """)
            #expect(made["available"] == .bool(true))
            #expect(made["conditional"] == .bool(false))
            #expect(made["isCredential"] == .bool(true) && made["isAttestation"] == .bool(true) && made["rawIdMatches"] == .bool(true))
            #expect(made["tag"] == .string("[object PublicKeyCredential]"))
            #expect(made["spki"] == .number(91) && made["algorithm"] == .number(-7))
            #expect(made["extensions"] == .object(["credProps": .object(["rk": .bool(true)])]))
            let signedIn = try await session.awaitInPage("""
                const credential = await navigator.credentials.get(\(PasskeyPages.request()));
                return { json: credential.toJSON(), isAssertion: credential.response instanceof AuthenticatorAssertionResponse,
                         userHandle: b64(credential.response.userHandle) };
                """)
            #expect(signedIn["isAssertion"] == .bool(true))
            #expect(signedIn["userHandle"] == .string("BwcH"))
            let origin = site.server.baseURL.absoluteString
            let verifier = RelyingPartyVerifier(relyingPartyID: "localhost", origins: [origin])
            let credential = try verifier.verifyRegistration(try #require(made["json"]), challenge: Data(repeating: 1, count: 32),
                                                             requireUserVerification: true)
            let verified = try verifier.verifyAssertion(try #require(signedIn["json"]), challenge: Data(repeating: 2, count: 32),
                                                        credential: credential, requireUserVerification: true)
            #expect(verified.signCount == 1)
            #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o600)
            #expect(await Self.passkeyEvents(recorder) == [.passkey(operation: .create, relyingParty: "localhost", outcome: .answered(.virtual)),
                                                           .passkey(operation: .get, relyingParty: "localhost", outcome: .answered(.virtual))])
            session.cancel()
            _ = await started.result
        }

        @Test("without a passkey the page gets NotAllowedError and can offer another way; a person's popup goes on")
        func noAuthenticator() async throws {
            let site = try await TestSite.start(host: "localhost")
            let url = site.page(title: "Sign in", body: "<p>Sign in</p>")
            let (session, started, _) = try await Self.session(url, passkey: nil, presentation: .window())
            let answer = try await session.awaitInPage("""
                return { available: await PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable(),
                         get: await attempt(() => navigator.credentials.get(\(PasskeyPages.request()))),
                         create: await attempt(() => navigator.credentials.create(\(PasskeyPages.creation()))),
                         password: await navigator.credentials.get({ password: true }) };
                """)
            #expect(answer["available"] == .bool(false))
            #expect(answer["get"]?["error"] == .string("NotAllowedError"))
            #expect(answer["create"]?["error"] == .string("NotAllowedError"))
            #expect(answer["password"] == .null)
            try await session.evaluateJavaScript("location.href = 'com.example:/cb?method=password'")
            #expect(try await started.value["method"] == "password", "the page went on to its other method")
        }

        @Test("a scripted page that settles on its passkey prompt ends with 'the page asks for a passkey', quoting the page")
        func settledOnPrompt() async throws {
            let site = try await TestSite.start(host: "localhost")
            let url = site.page(title: "Security key", body: """
                <p>Use your security key to sign in.</p>
                <button id='use-passkey' onclick="navigator.credentials.get({ publicKey: { challenge: new Uint8Array(32) } })
                    .catch(() => document.body.insertAdjacentHTML('beforeend', '<p role=alert>Passkey sign-in failed. Try another way.</p>'))">Use a passkey</button>
                <script>navigator.credentials.get({ mediation: 'conditional', publicKey: { challenge: new Uint8Array(32) } });</script>
                """)
            let session = try TestEngine.session(url, redirectURI: "com.example:/cb")
            let script = Task { try await loginScriptFixture("passkey").run(in: session) }
            let expected = WebAuthenticationError.passkeyRequested(operation: .get, relyingParty: "localhost", pageText: "Passkey sign-in failed. Try another way.")
            await #expect(throws: expected) { try await session.start() }
            #expect(expected.description.contains("the page asks for a passkey"))
            _ = await script.result
            #expect(await session.failureSnapshot?.visibleText?.contains("security key") == true, "the page is kept for the artefacts")
        }

        @Test("an AbortSignal aborts a request, before or while it waits: AbortError (or the signal's reason), and the engine forgets it")
        func abort() async throws {
            let site = try await TestSite.start(host: "localhost")
            let (session, started, recorder) = try await Self.session(site.page(body: "<p>abort</p>"), passkey: VirtualAuthenticatorSettings())
            let answer = try await session.awaitInPage("""
                const early = new AbortController();
                early.abort();
                const before = await attempt(() => navigator.credentials.get(Object.assign(\(PasskeyPages.request()), { signal: early.signal })));
                const waiting = new AbortController();
                const pending = attempt(() => navigator.credentials.get(Object.assign(\(PasskeyPages.request()),
                                                                                      { mediation: 'conditional', signal: waiting.signal })));
                waiting.abort(new DOMException('the page changed its mind', 'AbortError'));
                return { before, during: await pending };
                """)
            #expect(answer["before"]?["error"] == .string("AbortError"))
            #expect(answer["during"]?["error"] == .string("AbortError"))
            #expect(answer["during"]?["message"] == .string("the page changed its mind"))
            #expect(await Self.passkeyEvents(recorder).isEmpty, "autofill waits without a report, and an abort answers nothing")
            session.cancel()
            _ = await started.result
        }

        @Test("malformed options are the page's TypeError; an unknown algorithm list NotSupportedError; a second registration InvalidStateError")
        func pageErrors() async throws {
            let site = try await TestSite.start(host: "localhost")
            let (session, started, _) = try await Self.session(site.page(body: "<p>errors</p>"), passkey: VirtualAuthenticatorSettings())
            let answer = try await session.awaitInPage("""
                const first = await navigator.credentials.create(\(PasskeyPages.creation()));
                const exclude = { publicKey: Object.assign(\(PasskeyPages.creation()).publicKey, { excludeCredentials: [{ type: 'public-key', id: first.rawId }] }) };
                return {
                    noChallenge: await attempt(() => navigator.credentials.get({ publicKey: { challenge: 'not a buffer' } })),
                    noUser: await attempt(() => navigator.credentials.create({ publicKey: { rp: {}, challenge: bytes(32, 1), pubKeyCredParams: [] } })),
                    rsaOnly: await attempt(() => navigator.credentials.create({ publicKey: Object.assign(\(PasskeyPages.creation()).publicKey,
                                                                                         { pubKeyCredParams: [{ type: 'public-key', alg: -257 }] }) })),
                    excluded: await attempt(() => navigator.credentials.create(exclude)),
                    store: await attempt(() => navigator.credentials.store({})),
                };
                """)
            #expect(answer["noChallenge"]?["error"] == .string("TypeError"))
            #expect(answer["noUser"]?["error"] == .string("TypeError"))
            #expect(answer["rsaOnly"]?["error"] == .string("NotSupportedError"))
            #expect(answer["excluded"]?["error"] == .string("InvalidStateError"))
            #expect(answer["store"]?["error"] == .string("NotSupportedError"))
            session.cancel()
            _ = await started.result
        }

        @Test("a damaged credentials file ends the sign-in with a typed error naming it")
        func damagedFile() async throws {
            let file = PasskeyPages.credentialsFile()
            defer { try? FileManager.default.removeItem(atPath: file) }
            _ = FileManager.default.createFile(atPath: file, contents: Data("{".utf8), attributes: [.posixPermissions: 0o600])
            let site = try await TestSite.start(host: "localhost")
            let session = try TestEngine.session(site.page(body: "<p>x</p>"), redirectURI: "com.example:/cb")
            let script = Task { try await LoginScript([.click("#never")], passkey: VirtualAuthenticatorSettings(credentialsFile: file)).run(in: session) }
            await #expect { try await session.start() } throws: { error in
                guard case .passkeyCredentialsUnusable(.damaged(let path, _)) = error as? WebAuthenticationError else { return false }
                return path == file
            }
            _ = await script.result
        }
    }
}
