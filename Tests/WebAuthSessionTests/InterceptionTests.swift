import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing
@testable import WebAuthSession

/// The kinds of redirect URI an application registers.
enum RedirectKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case customSchemePath, customSchemeHost, loopbackIPv4, loopbackIPv6, localhost, https

    var testDescription: String { rawValue }
    var isLoopback: Bool { [.loopbackIPv4, .loopbackIPv6, .localhost].contains(self) }
    var host: String { self == .loopbackIPv6 ? "::1" : "127.0.0.1" }

    /// The redirect URI. Loopback ones point at `port`.
    func redirectURI(port: Int) -> String {
        switch self {
        case .customSchemePath: "com.example.app:/oauth2redirect"
        case .customSchemeHost: "com.example://cb"
        case .loopbackIPv4: "http://127.0.0.1:\(port)/callback"
        case .loopbackIPv6: "http://[::1]:\(port)/callback"
        case .localhost: "http://localhost:\(port)/callback"
        case .https: "https://app.example.test/callback"
        }
    }
}

extension EngineTests {
    @Suite("Redirect interception")
    struct Interception {
        static let parameters: [(name: String, value: String)] = [("code", "SplxlOBeZQQYbYS6WxSbIA"), ("state", "af0ifjsldkj+/=")]

        /// Runs one redirect and checks what came back and that nothing reached the network.
        private func expectCapture(_ way: RedirectWay, _ kind: RedirectKind, fragment: Bool = false,
                                   parameters: [(name: String, value: String)] = parameters) async throws -> RedirectCallback? {
            let site = try await TestSite.start()
            // A loopback redirect points at a real listener of its own that records requests (GET
            // ways) or, for a form POST, at a port held for this test that the engine must bind
            // itself. It is never the start page's own port: the redirect URI's host and port
            // belong to the application.
            let sink = kind.isLoopback ? try await TestSite.start(host: kind.host) : site
            let held = way == .formPost ? try PortReservation(host: kind.host) : nil
            defer { withExtendedLifetime(held) {} }
            let port = held?.port ?? sink.server.port
            let redirect = kind.redirectURI(port: port)
            let start = way.startURL(on: site, redirect: redirect, parameters: parameters, fragment: fragment)
            let session = try TestEngine.session(start, redirectURI: redirect)
            let recorder = EventRecorder(session)
            let callback = try await session.start()

            for (name, value) in parameters {
                #expect(callback[name] == value)
                #expect(callback.parameters[name]?.source == way.source(fragment: fragment))
            }
            #expect(callback.url.hasPrefix(redirect))
            #expect(sink.requests(to: "/callback").isEmpty, "the redirect must never reach the network")
            let decisions = await recorder.allDecisions()
            #expect(decisions.contains { $0.verdict == .captured })
            let committed = await recorder.all().contains {
                if case .loadCommitted(let url, _, _) = $0 { url.hasPrefix(redirect) } else { false }
            }
            #expect(!committed, "the redirect must never load")
            return callback
        }

        @Test("each way, each redirect URI kind, query or form-post parameters",
              arguments: RedirectWay.allCases, RedirectKind.allCases)
        func captures(way: RedirectWay, kind: RedirectKind) async throws {
            try #require(kind != .loopbackIPv6 || TestEngine.hasIPv6Loopback)
            if way == .formPost, kind == .https {
                await #expect(throws: WebAuthenticationError.self) { try await expectCapture(way, kind) }
                return
            }
            _ = try await expectCapture(way, kind)
        }

        @Test("fragment responses (implicit and hybrid flows)",
              arguments: RedirectWay.allCases.filter { !$0.isForm }, [RedirectKind.customSchemePath, .loopbackIPv4])
        func fragment(way: RedirectWay, kind: RedirectKind) async throws {
            _ = try await expectCapture(way, kind, fragment: true,
                                        parameters: [("access_token", "2YotnFZFEjr1zCsicMWpAA"), ("token_type", "Bearer"), ("state", "xyz")])
        }

        @Test("error responses come back as callbacks, in query and in fragment",
              arguments: [false, true], [RedirectKind.customSchemePath, .loopbackIPv4])
        func errorResponse(fragment: Bool, kind: RedirectKind) async throws {
            let callback = try await expectCapture(.http302, kind, fragment: fragment, parameters: [
                ("error", "access_denied"), ("error_description", "The user said no"), ("state", "s1"),
            ])
            #expect(callback?["error"] == "access_denied")
            #expect(callback?["error_description"] == "The user said no")
        }

        @Test("a form POST to an https redirect URI is a typed error, not a lost response")
        func formPostToHTTPS() async throws {
            let site = try await TestSite.start()
            let redirect = RedirectKind.https.redirectURI(port: 0)
            let session = try TestEngine.session(RedirectWay.formPost.startURL(on: site, redirect: redirect, parameters: Self.parameters),
                                                 redirectURI: redirect)
            await #expect(throws: WebAuthenticationError.formPostNotCapturable(url: redirect)) { try await session.start() }
        }

        @Test("RFC 8252 any-port matching captures a loopback redirect on another port")
        func anyPort() async throws {
            let site = try await TestSite.start()
            let registered = try RedirectURI("http://127.0.0.1:1/callback", portMatching: .anyPort)
            let actual = "http://127.0.0.1:\(site.server.port)/callback"
            let start = RedirectWay.javascriptLocation.startURL(on: site, redirect: actual, parameters: Self.parameters)
            let session = WebAuthenticationSession(url: start, redirectURI: registered, options: TestEngine.options())
            let callback = try await session.start()
            #expect(callback["code"] == Self.parameters[0].value)
            #expect(site.requests(to: "/callback").isEmpty)
        }
    }
}
