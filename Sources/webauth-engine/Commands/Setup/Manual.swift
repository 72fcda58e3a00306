import ArgumentParser
import Foundation
import WebAuthCommandLine

/// `webauth manual --output-directory DIR`: the binary writes its own man pages (mdoc), one for
/// `webauth` and one per command (`webauth-login.1`, …), from the same definitions as `--help`.
/// `scripts/install` and the Debian package call it, so installing a built binary needs no Swift
/// toolchain and writes nothing into a checkout.
struct Manual: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write webauth's man pages (webauth.1 and one per command) into a folder.",
        shouldDisplay: false)

    @Option(help: ArgumentHelp("The folder to write the pages into (made if missing).", valueName: "directory"))
    var outputDirectory: String

    func run() throws {
        let folder = URL(fileURLWithPath: outputDirectory)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (name, page) in Self.pages() {
                try Data(page.utf8).write(to: folder.appendingPathComponent("\(name).1"), options: .atomic)
            }
        } catch {
            throw CommandFailure(.localFailure, "cannot write the man pages in \(outputDirectory): \(error.localizedDescription)")
        }
    }

    /// Each page's file name (without `.1`) and text.
    static func pages(date: Date = Self.date) -> [(String, String)] {
        let commands = WebAuth.configuration.subcommands.filter { $0.configuration.shouldDisplay }
        let root = ManualPage(name: "webauth", help: WebAuth.helpMessage(columns: 10_000), date: date,
                              seeAlso: commands.map { "webauth-\($0._commandName)" })
        return [("webauth", root.text)] + commands.map { command in
            ("webauth-\(command._commandName)",
             ManualPage(name: "webauth-\(command._commandName)", help: WebAuth.helpMessage(for: command, columns: 10_000), date: date,
                        seeAlso: ["webauth"]).text)
        }
    }

    /// `SOURCE_DATE_EPOCH` (a reproducible build's date), else today.
    static var date: Date {
        CommandEnvironment.original["SOURCE_DATE_EPOCH"].flatMap(TimeInterval.init).map { Date(timeIntervalSince1970: $0) } ?? Date()
    }
}
