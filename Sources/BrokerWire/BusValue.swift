/// A value on the bus, as the contract's options and results carry it: the D-Bus types the API
/// uses, and for anything else only its type signature (an option of the wrong type is named, never read).
public indirect enum BusValue: Sendable, Hashable {
    /// `s`
    case string(String)
    /// `o`
    case objectPath(String)
    /// `b`
    case boolean(Bool)
    /// `u`
    case uint32(UInt32)
    /// `i`
    case int32(Int32)
    /// `x`
    case int64(Int64)
    /// `t`
    case uint64(UInt64)
    /// `d`
    case double(Double)
    /// `h`: an index into the message's file descriptors (a `GUnixFDList`), not a descriptor itself.
    case fileDescriptorIndex(Int32)
    /// `as`
    case strings([String])
    /// `a{ss}`
    case stringMap([String: String])
    /// `a{sv}`
    case dictionary([String: BusValue])
    /// `aa{sv}`
    case dictionaries([[String: BusValue]])
    /// A value of another type, by its D-Bus type signature: read as no option, written as nothing.
    case other(signature: String)

    /// The D-Bus type signature.
    public var signature: String {
        switch self {
        case .string: "s"
        case .objectPath: "o"
        case .boolean: "b"
        case .uint32: "u"
        case .int32: "i"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .fileDescriptorIndex: "h"
        case .strings: "as"
        case .stringMap: "a{ss}"
        case .dictionary: "a{sv}"
        case .dictionaries: "aa{sv}"
        case .other(let signature): signature
        }
    }
}
