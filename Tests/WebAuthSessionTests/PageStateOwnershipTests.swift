import Foundation
import Testing

/// A sign-in page's state is owned by the types that keep it: ``SignInPage`` keeps its flow and
/// its view's lifetime, each of its parts keeps its own, and the flow keeps where the sign-in is.
/// None of them declares a stored `var` that another type could set: another type calls the
/// owner's methods.
@Suite("Sign-in page state ownership")
struct PageStateOwnershipTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/WebAuthSession")

    /// The page, its parts and its flow, by file name (wherever their folder is).
    static let owners: Set = ["SignInPage.swift", "RedirectWatch.swift", "PasskeyRequests.swift", "PageChangeWaiters.swift",
                              "SettleWatch.swift", "SignInFlow.swift", "SignInDeadlines.swift"]

    @Test("the page, its parts and its flow declare no stored var that another type may set")
    func stateIsPrivate() throws {
        // A member `var` (four spaces in: a local variable is deeper, and so is a field of a value
        // the type hands out) declared without `private` and without a body `{` (a computed
        // property has one): internal, package or public stored state, settable from outside its type.
        let settable = try Regex(#"^ {4}(?:(?:internal|package|public|weak|unowned|lazy|nonisolated|static)\s+)*var\s+\w+[^{]*$"#)
        let files = try #require(FileManager.default.subpaths(atPath: Self.sources.path))
            .filter { Self.owners.contains(URL(fileURLWithPath: $0).lastPathComponent) }
        #expect(Set(files.map { URL(fileURLWithPath: $0).lastPathComponent }) == Self.owners, "every owner's file was found")
        var offenders: [String] = []
        for file in files {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") && line.wholeMatch(of: settable) != nil {
                offenders.append("\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(offenders.isEmpty, "state another type may set (make it private and give its owner a method):\n\(offenders.joined(separator: "\n"))")
    }
}
