import Foundation
import Testing
import WebAuthBrokerContract

/// The broker's bus contract without a broker running: the documented interface is the exported
/// one, and the options `webauth` sends decode to what it asked.
@Suite("Broker: the bus contract")
struct BrokerContractTests {
    /// The package's root, three folders above this file.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("docs/dbus/org.webauthsession.Broker1.xml is the interface the broker exports, with a comment before every method, property and signal")
    func contractFile() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/dbus/org.webauthsession.Broker1.xml"), encoding: .utf8)
        #expect(Self.elements(text) == Self.elements(BrokerContract.interfaceXML), "the documented interfaces are the exported ones")
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let members = lines.indices.filter { index in ["<method ", "<property ", "<signal ", "<interface "].contains { lines[index].hasPrefix($0) } }
        #expect(members.count == 10)
        for index in members {
            #expect(lines[index - 1].hasSuffix("-->"), "a comment before \(lines[index])")
        }
        #expect(text.contains("Interface version 1"))
    }

    /// The elements of an introspection document, without its comments, doctype and layout.
    static func elements(_ xml: String) -> [String] {
        var text = xml
        while let open = text.range(of: "<!--"), let close = text.range(of: "-->", range: open.upperBound..<text.endIndex) {
            text.removeSubrange(open.lowerBound..<close.upperBound)
        }
        if let open = text.range(of: "<!DOCTYPE"), let close = text.range(of: ">", range: open.upperBound..<text.endIndex) {
            text.removeSubrange(open.lowerBound..<close.upperBound)
        }
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    @Test("the GetToken options webauth sends decode to what it asked: account, min_valid (whole seconds, rounded up), scopes, resource")
    func optionsRoundTrip() throws {
        let asked = TokenOptions(account: "work", minimumValidity: .milliseconds(90_500), scopes: ["read", "write"], resources: ["https://api.example.com"])
        let decoded = try TokenOptions(asked.busOptions)
        #expect(decoded.account == "work" && decoded.minimumValidity == .seconds(91) && decoded.scopes == ["read", "write"]
                    && decoded.resources == ["https://api.example.com"], "\(decoded)")
        #expect(try TokenOptions(TokenOptions(account: "default").busOptions) == TokenOptions(account: "default"), "nothing asked, nothing sent")
    }
}
