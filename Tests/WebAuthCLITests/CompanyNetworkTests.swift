import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// `webauth login` in a company network: the page's languages (and later the proxy and the CA
/// file), against the development provider in this process.
@Suite("webauth login in a company network (the built binary)", .timeLimit(.minutes(3)))
struct CompanyNetworkTests {
    var webauth = WebAuthBinary()

    init() {
        webauth.environment["ALICE_PASSWORD"] = OpenIDProvider.User.alice.password
    }

    func login(_ provider: OpenIDProvider, _ extra: [String] = [], environment: [String: String] = [:]) async throws -> WebAuthBinary.Run {
        try await webauth(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless", "--store", "none",
                           "--script", try webauth.file("login-\(UUID().uuidString).yaml", LoginCommandTests.passwordScript)] + extra,
                          environment: environment)
    }

    @Test("the page asks for the locale's languages, like gettext: LANGUAGE's list first, and sends no ui_locales")
    func languagesFromTheLocale() async throws {
        let provider = try await OpenIDProvider.start()
        let run = try await login(provider, environment: ["LANGUAGE": "it:es", "LANG": "de_DE.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let asked = try #require(provider.languagesAsked.first)
        #expect(asked.acceptLanguage?.hasPrefix("it") == true && asked.acceptLanguage?.contains("es") == true,
                "Accept-Language: \(asked.acceptLanguage ?? "none")")
        #expect(asked.acceptLanguage?.contains("de") == false)
        #expect(asked.uiLocales == nil)
    }

    @Test("--language (repeatable, comma lists) sets the page's Accept-Language and sends ui_locales")
    func languagesGiven() async throws {
        let provider = try await OpenIDProvider.start()
        let run = try await login(provider, ["--language", "fr-CA,fr", "--language", "en"], environment: ["LANGUAGE": "it", "LANG": "it_IT.UTF-8"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let asked = try #require(provider.languagesAsked.first)
        #expect(asked.acceptLanguage?.hasPrefix("fr-CA") == true && asked.acceptLanguage?.contains("it") == false,
                "Accept-Language: \(asked.acceptLanguage ?? "none")")
        #expect(asked.uiLocales == "fr-CA fr en")
    }

    @Test("language in --config does the same; a tag that is not one is a usage error")
    func languagesInTheConfigurationFile() async throws {
        let provider = try await OpenIDProvider.start()
        let config = try webauth.file("config-\(UUID().uuidString).json", #"{"language": ["pt-BR"]}"#)
        let run = try await login(provider, ["--config", config])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(provider.languagesAsked.first?.uiLocales == "pt-BR")
        #expect(provider.languagesAsked.first?.acceptLanguage?.hasPrefix("pt-BR") == true)
        let wrong = try await login(provider, ["--language", "fr;q=1"])
        #expect(wrong.status == 64 && wrong.stderr.contains("not a language tag"), "stderr: \(wrong.stderr)")
    }
}
