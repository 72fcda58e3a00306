import Foundation
import Testing

/// One version, so a user and the package archive agree on what is installed: `webauth --version` (WebAuthVersion.current) is the Debian package's
/// Version, and CHANGELOG.md agrees with it; `scripts/cut-changelog`, which `scripts/package --release`
/// runs, turns [Unreleased] into that version's release.
@Suite("CHANGELOG and webauth --version (the built binary)", .timeLimit(.minutes(2)))
struct ChangelogTests {
    let webauth = WebAuthBinary()
    let changelog = InterfaceTests.root.appendingPathComponent("CHANGELOG.md")

    func version() async throws -> String {
        let run = try await webauth(["--version"])
        try #require(run.status == 0, "stderr: \(run.stderr)")
        return run.stdout.trimmingCharacters(in: .newlines)
    }

    /// Runs scripts/cut-changelog on `file` for `version`.
    func cut(_ file: String, as version: String) async throws -> WebAuthBinary.Run {
        try await webauth.run(InterfaceTests.root.appendingPathComponent("scripts/cut-changelog"), [version, file],
                              environment: ["SOURCE_DATE_EPOCH": "1795000000"])
    }

    @Test("CHANGELOG's newest release and its [Unreleased] section agree with webauth --version")
    func agrees() async throws {
        let text = try String(contentsOf: changelog, encoding: .utf8)
        let problem = Changelog(text).disagreement(with: try await version())
        #expect(problem == nil, "CHANGELOG.md: \(problem ?? "")")
    }

    @Test("scripts/cut-changelog makes [Unreleased] the release of webauth --version, which then agrees; a second cut is refused")
    func cutsTheRelease() async throws {
        let version = try await version()
        let before = try String(contentsOf: changelog, encoding: .utf8)
        let copy = try webauth.file("CHANGELOG.md", before)
        let unreleased = try #require(Changelog(before).unreleased)
        try #require(!unreleased.entries.isEmpty, "nothing to release in [Unreleased]")

        let run = try await cut(copy, as: version)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let after = Changelog(try String(contentsOfFile: copy, encoding: .utf8))
        #expect(after.unreleased?.entries == [], "[Unreleased] starts again empty")
        #expect(after.releases.first?.name == version && after.releases.first?.date == "2026-11-18")
        #expect(after.releases.first?.entries == unreleased.entries, "the entries moved, all of them")
        #expect(after.disagreement(with: version) == nil, "\(after.disagreement(with: version) ?? "")")

        let again = try await cut(copy, as: version)
        #expect(again.status == 1 && again.stderr.contains("already has a section for \(version)"), "stderr: \(again.stderr)")
        #expect(Changelog(try String(contentsOfFile: copy, encoding: .utf8)).releases.count == after.releases.count, "unchanged")
    }

    @Test("a release that is not webauth --version, and changes after the release of webauth --version, disagree")
    func disagrees() async throws {
        let version = try await version()
        let copy = try webauth.file("CHANGELOG.md", try String(contentsOf: changelog, encoding: .utf8))
        let ahead = Changelog.Version(version).map { "\($0.parts[0] + 1).0.0" } ?? "1.0.0"
        try #require(try await cut(copy, as: ahead).status == 0)
        let released = try String(contentsOfFile: copy, encoding: .utf8)
        #expect(Changelog(released).disagreement(with: version)?.contains("this is the release \(ahead)") == true)

        let changedSince = released.replacingOccurrences(of: "## [Unreleased]\n", with: "## [Unreleased]\n\n- A change after the release.\n")
        #expect(Changelog(changedSince).disagreement(with: ahead)?.contains("raise WebAuthVersion.current") == true)
        #expect(Changelog(changedSince).disagreement(with: "\(ahead.prefix { $0 != "." }).0.1") == nil, "the next version agrees")
    }
}
