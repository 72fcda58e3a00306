import Foundation
import SignInFiles
import Testing

/// The configuration file parser on its own (SignInFiles), for inputs the fuzzer found.
@Suite("Configuration file parsing")
struct ConfigurationFileParsingTests {
    /// The config fuzz target's crash: 2 847 `[` overflowed the stack of the scanner
    /// that says where a JSON file breaks, which recursed once per level with no limit.
    @Test("JSON nested past 512 levels is an error at the 513th, not a stack overflow", arguments: [2847, 100_000])
    func deepNesting(levels: Int) {
        let data = Data(String(repeating: "[", count: levels).utf8)
        #expect(throws: ConfigurationFileError(.malformed, path: "deep.json", "the configuration file deep.json is not valid JSON: "
            + "line 1, column 513: more than 512 arrays and objects inside each other")) {
            try ConfigurationFile(data: data, path: "deep.json")
        }
    }

    @Test("within the limit, a broken file still says where it breaks")
    func shallowNesting() {
        let data = Data((String(repeating: "[", count: 511) + "}").utf8)
        #expect(throws: ConfigurationFileError(.malformed, path: "c.json", "the configuration file c.json is not valid JSON: "
            + "line 1, column 512: unexpected '}'")) {
            try ConfigurationFile(data: data, path: "c.json")
        }
    }
}
