import Foundation
import Testing

/// The GObject layer (the GLib kit, Sources/GLibKit/ with its GLib-only part Sources/GLibLifetimes/,
/// and the engine's signals on it, Sources/WebAuthSession/GObject/) is the only Swift code that
/// connects signals, takes or drops GObject references and frees GErrors.
@Suite("GObject gateway")
struct GObjectGatewayTests {
    /// The package's root, three folders above this file.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The calls that belong to the GObject layer: the shim's typed connect helpers are found by
    /// their `cwk_connect_` prefix.
    static let gatewayCalls = ["g_signal_connect_data", "cwk_connect_", "g_object_ref", "g_object_unref", "g_clear_object",
                               "g_error_free"]

    @Test("no Swift file under Sources/ outside the GObject layer connects signals, refs, unrefs or frees a GError")
    func onlyTheGatewayTouchesLifetimes() throws {
        let sources = Self.packageRoot.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 50, "the sources were found")
        var offenders: [String] = []
        for file in files {
            let path = String(file.standardizedFileURL.path.dropFirst(Self.packageRoot.standardizedFileURL.path.count + 1))
            guard !path.hasPrefix("Sources/WebAuthSession/GObject/"), !path.hasPrefix("Sources/GLibKit/"),
                  !path.hasPrefix("Sources/GLibLifetimes/") else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for call in Self.gatewayCalls where text.contains(call) {
                offenders.append("\(path): \(call)")
            }
        }
        #expect(offenders == [], "use GObjectReference, SignalConnection, RetainedBox and GLibError instead")
    }

    @Test("Unmanaged appears only in the GObject layer's retained box")
    func oneRetainedBox() throws {
        let sources = Self.packageRoot.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        let users = try files.filter { try String(contentsOf: $0, encoding: .utf8).contains("Unmanaged") }.map(\.lastPathComponent)
        #expect(users == ["RetainedBox.swift"])
    }
}
