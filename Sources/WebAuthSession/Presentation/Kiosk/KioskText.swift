import Foundation

/// The kiosk's own words in the visitor's language: a small table, English and French. The
/// language comes from ``KioskSettings/language`` or the environment (`LANGUAGE`, `LC_ALL`,
/// `LC_MESSAGES`, `LANG`, in gettext's order); a language the table lacks gets English.
struct KioskText: Sendable, Equatable {
    /// The language the words are in (`"en"`, `"fr"`).
    let language: String
    let welcome: String
    let startAgain: String
    let signIn: String
    let startOver: String
    let notEncrypted: String
    let smallerText: String
    let largerText: String
    let touchToContinue: String
    let hideKeyboard: String
    let space: String
    private let stillThereFormat: String

    /// "Still there? Starting over in `seconds` s".
    func stillThere(seconds: Int) -> String {
        stillThereFormat.replacingOccurrences(of: "%d", with: String(seconds))
    }

    /// The words in `language` if given, else in the environment's language.
    init(language: String?, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let wanted = language.map { [$0] } ?? Self.preferredLanguages(environment)
        let code = wanted.lazy.map(Self.languageCode).first { Self.table[$0] != nil } ?? "en"
        self = Self.table[code]!
    }

    private init(_ language: String, welcome: String, startAgain: String, signIn: String, startOver: String,
                 notEncrypted: String, smallerText: String, largerText: String, stillThere: String,
                 touchToContinue: String, hideKeyboard: String, space: String) {
        (self.language, self.welcome, self.startAgain, self.signIn, self.startOver) = (language, welcome, startAgain, signIn, startOver)
        (self.notEncrypted, self.smallerText, self.largerText, self.stillThereFormat) = (notEncrypted, smallerText, largerText, stillThere)
        (self.touchToContinue, self.hideKeyboard, self.space) = (touchToContinue, hideKeyboard, space)
    }

    /// The languages the environment asks for, first choice first. `LANGUAGE` (a colon-separated
    /// list) counts only when the locale is not C or POSIX, as in gettext.
    static func preferredLanguages(_ environment: [String: String]) -> [String] {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        var languages: [String] = []
        if !["", "c", "posix"].contains(languageCode(locale)), let list = environment["LANGUAGE"] {
            languages = list.split(separator: ":").map(String.init)
        }
        return languages + [locale]
    }

    /// `"fr_CA.UTF-8@euro"` → `"fr"`.
    private static func languageCode(_ locale: String) -> String {
        String(locale.prefix { $0.isLetter }).lowercased()
    }

    private static let table: [String: KioskText] = [
        "en": KioskText("en", welcome: "Welcome. Sign in to continue.",
                        startAgain: "The sign-in was reset and nothing of it was kept. Start again when you are ready.",
                        signIn: "Sign in", startOver: "Start over", notEncrypted: "not encrypted",
                        smallerText: "Smaller text", largerText: "Larger text",
                        stillThere: "Still there? Starting over in %d s", touchToContinue: "Touch the screen to continue.",
                        hideKeyboard: "Hide keyboard", space: "space"),
        "fr": KioskText("fr", welcome: "Bienvenue. Connectez-vous pour continuer.",
                        startAgain: "La connexion a été annulée et rien n’en a été gardé. Recommencez quand vous voulez.",
                        signIn: "Se connecter", startOver: "Recommencer", notEncrypted: "non chiffré",
                        smallerText: "Texte plus petit", largerText: "Texte plus grand",
                        stillThere: "Toujours là ? Retour au début dans %d s", touchToContinue: "Touchez l’écran pour continuer.",
                        hideKeyboard: "Masquer le clavier", space: "espace"),
    ]
}
