import Foundation
import Testing
@testable import WebAuthn

/// CTAP2's canonical CBOR: RFC 8949 Appendix A's examples, CTAP 2.1 §8's key order, and every
/// kind of input the decoder must refuse without crashing.
@Suite("Passkey protocol: CBOR")
struct PasskeyCBORTests {
    static func hex(_ text: String) -> Data {
        Data(stride(from: 0, to: text.count, by: 2).map { UInt8(text.dropFirst($0).prefix(2), radix: 16)! })
    }

    @Test("integers, strings, arrays and maps encode as RFC 8949's examples and decode back", arguments: [
        (CBORValue.int(0), "00"), (.int(23), "17"), (.int(24), "1818"), (.int(100), "1864"), (.int(1000), "1903e8"),
        (.int(1_000_000), "1a000f4240"), (.unsigned(1_000_000_000_000), "1b000000e8d4a51000"), (.unsigned(.max), "1bffffffffffffffff"),
        (.int(-1), "20"), (.int(-100), "3863"), (.int(-1000), "3903e7"), (.negative(.max), "3bffffffffffffffff"),
        (.bytes(hex("01020304")), "4401020304"), (.text(""), "60"), (.text("a"), "6161"), (.text("\u{00fc}"), "62c3bc"),
        (.array([1, .array([2, 3]), .array([4, 5])]), "8301820203820405"), (.map([(1, 2), (3, 4)]), "a201020304"),
        (.bool(false), "f4"), (.bool(true), "f5"), (.null, "f6"),
    ])
    func examples(value: CBORValue, encoding: String) throws {
        #expect(value.encoded == Self.hex(encoding))
        #expect(try CBORDecoder.decode(Self.hex(encoding)) == value)
    }

    @Test("map keys are written shorter first, then byte by byte, whatever order they were given in (CTAP 2.1 §8)")
    func canonicalKeyOrder() throws {
        let map = CBORValue.map([("aa", 1), ("b", 2), (-1, 3), (10, 4), (100, 5)])
        // 10 (0a), -1 (20), 100 (1864), "b" (6162), "aa" (626161)
        #expect(map.encoded == Self.hex("a50a0420031864056162026261610" + "1"))
    }

    @Test("what CTAP2 does not use, and malformed input, is refused with where it stopped", arguments: [
        ("5f4101ff", CBORError.Problem.unsupported(initialByte: 0x5F)),   // an indefinite-length byte string
        ("c074323031332d30332d32315432303a30343a30305a", .unsupported(initialByte: 0xC0)),  // a tag
        ("f93c00", .unsupported(initialByte: 0xF9)),                      // a half-precision float
        ("f7", .unsupported(initialByte: 0xF7)),                          // undefined
        ("1c", .unsupported(initialByte: 0x1C)),                          // reserved additional information
        ("a201020103", .duplicateKey),
        ("1903", .truncated), ("", .truncated), ("18", .truncated),
        ("5bffffffffffffffff", .tooLong), ("9a7fffffff", .tooLong),
        ("62c328", .invalidText),
        ("0000", .trailingBytes),
        ("1817", .notShortest), ("a2011801180102", .notShortest),  // 23 in two bytes; key 1 spelt twice
        ("5a0000000100", .notShortest),
    ])
    func refusals(input: String, problem: CBORError.Problem) {
        #expect { try CBORDecoder.decode(Self.hex(input)) } throws: { ($0 as? CBORError)?.problem == problem }
    }

    @Test("nesting deeper than the limit is refused, not a stack overflow")
    func depth() {
        let deep = Data(repeating: 0x81, count: 100_000) + Data([0x00])
        #expect { try CBORDecoder.decode(deep) } throws: { ($0 as? CBORError)?.problem == .tooDeep }
        let allowed = Data(repeating: 0x81, count: CBORDecoder.maximumDepth) + Data([0x00])
        #expect((try? CBORDecoder.decode(allowed)) != nil)
    }

    @Test("a prefix read reports its length, so authenticator data can read a COSE key followed by extensions")
    func prefix() throws {
        let (value, length) = try CBORDecoder.decodePrefix(Self.hex("a10102a0"))
        #expect(value == .map([(1, 2)]))
        #expect(length == 3)
    }
}
