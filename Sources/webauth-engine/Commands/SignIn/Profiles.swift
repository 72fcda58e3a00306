import ArgumentParser
import Foundation
import OpenIDConnect
import WebAuthSession
import WebAuthCommandLine

/// `webauth profiles`: the saved sign-ins, one line (or JSON object) each.
struct Profiles: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the saved sign-ins: name, subject, issuer, access-token expiry and store.",
        discussion: """
            Lists the files under $XDG_STATE_HOME/webauthsession and, when a Secret Service answers, \
            the keyring's sign-ins. --json prints {"profiles": [...]}, described by \
            docs/schemas/profiles.schema.json. $WEBAUTH_PROFILE names the profile other commands use \
            without --profile.
            """)

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func run() async throws {
        try await reportingFailures(ifInterrupted: "nothing was printed") {
            var entries: [Entry] = []
            for name in try await ProfileStore.savedNames() {
                entries.append(await Entry(name: name))
            }
            if json {
                print(JSONValue.object(["profiles": .array(entries.map(\.json))]).description)
            } else {
                print(Self.table(entries), terminator: "")
            }
        }
    }

    /// The columns NAME, SUBJECT, ISSUER, EXPIRES, STORE, padded; a sign-in that cannot be read
    /// shows a short reason instead of its subject, one that needs a new sign-in says so instead
    /// of its expiry, and the whole reason is below the table, so one entry does not stretch every row.
    static func table(_ entries: [Entry]) -> String {
        guard !entries.isEmpty else { return "No saved sign-ins (webauth login saves one).\n" }
        let rows = [["NAME", "SUBJECT", "ISSUER", "EXPIRES", "STORE"]] + entries.map { entry in
            [entry.name, entry.problem.map { _ in "(cannot be read*)" } ?? entry.subject ?? "-", entry.issuer ?? "-",
             entry.signInAgain.map { _ in "(sign in again*)" } ?? entry.expiry.map { ISO8601DateFormatter().string(from: $0) } ?? "-", entry.store]
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        let table = rows.map { row in
            row.indices.map { column in column == row.count - 1 ? row[column] : row[column].padding(toLength: widths[column], withPad: " ", startingAt: 0) }
                .joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
        let notes = entries.compactMap { entry in
            entry.problem.map { "* \(entry.name): \($0)" }
                ?? entry.signInAgain.map { "* \(entry.name): \($0): webauth login --profile \(entry.name)" }
        }
        return notes.isEmpty ? table : table + "\n" + notes.joined(separator: "\n") + "\n"
    }

    /// One saved sign-in as listed.
    struct Entry {
        let name: String
        let store: String
        let signedIn: Bool
        let subject: String?
        let issuer: String?
        let expiry: Date?
        /// Why the sign-in cannot be read, if it cannot.
        let problem: String?
        /// Why the sign-in needs a new one, if it does (a refresh the provider refused, say).
        let signInAgain: String?

        /// The sign-in saved as `name`, read the way other commands read it.
        init(name: String) async {
            self.name = name
            var state: AuthState?
            var store = "unknown"
            var problem: String?
            do {
                let opened = try await ProfileStore.forReading(name: name, choice: nil)
                store = ProfileStore.describe(opened)
                state = try await ProfileStore.load(name, from: opened)
            } catch {
                problem = error.message
            }
            self.store = store
            self.problem = problem
            signedIn = state != nil && state?.reauthenticationReason == nil
            signInAgain = state?.reauthenticationReason?.description
            subject = state?.idToken?.subject
            issuer = state?.configuration.issuer
            expiry = state?.lastTokenResponse?.accessTokenExpiresAt
        }

        /// The entry in `profiles --json`: every key always there, `null` when unknown.
        var json: JSONValue {
            .object([
                "name": .string(name),
                "store": .string(store),
                "signed_in": .bool(signedIn),
                "subject": subject.map(JSONValue.string) ?? .null,
                "issuer": issuer.map(JSONValue.string) ?? .null,
                "access_token_expires_at": expiry.map { .string(ISO8601DateFormatter().string(from: $0)) } ?? .null,
                "problem": problem.map(JSONValue.string) ?? .null,
            ])
        }
    }
}
