import Testing
@testable import WebAuthSession

/// The kiosk's own words follow the visitor's language: the configured one, else the
/// environment's, in gettext's order; English when the kiosk does not speak it.
@Suite("Kiosk text")
struct KioskTextTests {
    @Test("the language comes from LANGUAGE, LC_ALL, LC_MESSAGES, LANG, in that order", arguments: [
        (["LANG": "fr_FR.UTF-8"], "fr"),
        (["LANG": "en_GB.UTF-8", "LC_MESSAGES": "fr_BE.UTF-8"], "fr"),
        (["LC_MESSAGES": "fr_FR.UTF-8", "LC_ALL": "en_US.UTF-8"], "en"),
        (["LANG": "en_US.UTF-8", "LANGUAGE": "de:fr:en"], "fr"),
        (["LANG": "C", "LANGUAGE": "fr"], "en"),
        (["LANG": "de_DE.UTF-8"], "en"),
        ([:], "en"),
    ])
    func fromEnvironment(environment: [String: String], language: String) {
        #expect(KioskText(language: nil, environment: environment).language == language)
    }

    @Test("a configured language wins over the environment")
    func configured() {
        let french = KioskText(language: "fr", environment: ["LANG": "en_US.UTF-8"])
        #expect(french.startOver == "Recommencer")
        #expect(french.stillThere(seconds: 15) == "Toujours là ? Retour au début dans 15 s")
        #expect(KioskText(language: "en", environment: ["LANG": "fr_FR.UTF-8"]).stillThere(seconds: 15) == "Still there? Starting over in 15 s")
    }
}
