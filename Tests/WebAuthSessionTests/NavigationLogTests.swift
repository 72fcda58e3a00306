import Foundation
import Testing
@testable import WebAuthSession

/// The navigation log's entries, without WebKit: a typed kind in Swift, the same strings as
/// ever in `navigation.json`.
@Suite("Navigation log")
struct NavigationLogTests {
    @Test("each event becomes an entry of its kind, written in navigation.json as the same string as before", arguments: [
        (WebAuthenticationEvent.loadStarted(url: "https://p.example/a"), NavigationLogEntry.Kind.loadStarted, "load-started"),
        (.loadRedirected(url: "https://p.example/b"), .loadRedirected, "load-redirected"),
        (.loadCommitted(url: "https://p.example/b", host: "p.example", tls: .valid), .loadCommitted, "load-committed"),
        (.loadFinished(url: "https://p.example/b"), .loadFinished, "load-finished"),
        (.loadFailed(url: "https://p.example/b", reason: "g-io-error-quark 19", ignored: true), .loadFailed, "load-failed"),
        (.certificateTrusted(host: "p.example"), .certificateTrusted, "certificate-trusted"),
        (.titleChanged("Sign in"), .title, "title"),
        (.printRefused(url: "https://p.example/b"), .printRefused, "print-refused"),
        (.contextMenuRefused(url: "https://p.example/b"), .contextMenuRefused, "context-menu-refused"),
        (.fileChooserRefused(url: "https://p.example/b"), .fileChooserRefused, "file-chooser-refused"),
        (.httpAuthenticationDialogShown(host: "intranet.example", realm: "Staff"), .httpAuthenticationDialog, "http-authentication-dialog"),
        (.passkey(operation: .get, relyingParty: "example.com", outcome: .answered(.virtual)), .passkey, "passkey"),
        (.navigation(NavigationDecision(url: "https://p.example/c", verdict: .allowed)), .allowed, "allowed"),
        (.navigation(NavigationDecision(url: "com.example:/cb?code=<4>", verdict: .captured)), .captured, "captured"),
        (.navigation(NavigationDecision(url: "file:///etc/passwd", verdict: .refused(.fileURL))), .refused, "refused"),
    ])
    func kinds(event: WebAuthenticationEvent, kind: NavigationLogEntry.Kind, json: String) throws {
        let entry = try #require(NavigationLogEntry(event, milliseconds: 12))
        #expect(entry.kind == kind)
        let encoded = try JSONEncoder().encode(entry)
        let object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        #expect(object["kind"] as? String == json)
        #expect(try JSONDecoder().decode(NavigationLogEntry.self, from: encoded) == entry)
        #expect(entry.description.contains(" \(json) "))
    }

    @Test("progress, the idle warning and the touch keyboard are not navigation: not in the log")
    func progressIsNotLogged() {
        #expect(NavigationLogEntry(.progress(0.5), milliseconds: 1) == nil)
        #expect(NavigationLogEntry(.idleWarningShown(secondsLeft: 15), milliseconds: 1) == nil)
        #expect(NavigationLogEntry(.touchKeyboard(shown: true), milliseconds: 1) == nil)
    }
}
