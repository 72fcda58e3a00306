internal import CGDBus

/// Between ``BusValue`` and GLib's `GVariant`: the only place the contract's values meet C.
extension BusValue {
    /// The value of `variant` (not consumed): a type the contract uses, else ``other(signature:)``.
    /// Strings are read with their length, so a string with an embedded NUL is not cut short silently:
    /// GVariant's own check refuses those on the bus already.
    package init(variant: OpaquePointer) {
        let signature = String(cString: g_variant_get_type_string(variant))
        switch signature {
        case "s": self = .string(Self.string(variant))
        case "o": self = .objectPath(Self.string(variant))
        case "b": self = .boolean(g_variant_get_boolean(variant) != 0)
        case "u": self = .uint32(g_variant_get_uint32(variant))
        case "i": self = .int32(g_variant_get_int32(variant))
        case "x": self = .int64(Int64(g_variant_get_int64(variant)))
        case "t": self = .uint64(UInt64(g_variant_get_uint64(variant)))
        case "d": self = .double(g_variant_get_double(variant))
        case "h": self = .fileDescriptorIndex(g_variant_get_handle(variant))
        case "as": self = .strings(Self.strings(of: variant))
        case "a{ss}": self = .stringMap(Self.entries(of: variant) { Self.string($0) })
        case "a{sv}": self = .dictionary(Self.dictionary(variant: variant))
        default: self = .other(signature: signature)
        }
    }

    /// An `a{sv}` (options, results) as a dictionary: each variant's value unwrapped. A key given
    /// twice keeps its last value, as GLib's lookup does.
    package static func dictionary(variant: OpaquePointer) -> [String: BusValue] {
        entries(of: variant) { boxed in
            let inner = g_variant_get_variant(boxed)!
            defer { g_variant_unref(inner) }
            return BusValue(variant: inner)
        }
    }

    /// A new floating `GVariant` of this value (``other(signature:)`` has none: an empty `a{sv}`
    /// stands in; the broker never writes one).
    package func newVariant() -> OpaquePointer {
        switch self {
        case .string(let text): g_variant_new_string(text)
        case .objectPath(let path): g_variant_new_object_path(path)
        case .boolean(let value): g_variant_new_boolean(value ? 1 : 0)
        case .uint32(let value): g_variant_new_uint32(value)
        case .int32(let value): g_variant_new_int32(value)
        case .int64(let value): g_variant_new_int64(gint64(value))
        case .uint64(let value): g_variant_new_uint64(guint64(value))
        case .double(let value): g_variant_new_double(value)
        case .fileDescriptorIndex(let index): g_variant_new_handle(index)
        case .strings(let values): Self.array(of: "s", values.map { g_variant_new_string($0) })
        case .stringMap(let map):
            Self.array(of: "{ss}", map.sorted { $0.key < $1.key }.map { g_variant_new_dict_entry(g_variant_new_string($0.key), g_variant_new_string($0.value)) })
        case .dictionary(let map): Self.newDictionary(map)
        case .dictionaries(let maps): Self.array(of: "a{sv}", maps.map(Self.newDictionary))
        case .other: Self.newDictionary([:])
        }
    }

    /// The children of a tuple (a call's arguments or reply; not consumed).
    package static func values(ofTuple tuple: OpaquePointer) -> [BusValue] {
        (0..<g_variant_n_children(tuple)).map { index in
            let child = g_variant_get_child_value(tuple, index)!
            defer { g_variant_unref(child) }
            return BusValue(variant: child)
        }
    }

    /// A new floating tuple of `values` (a call's arguments, a reply, a signal's arguments).
    package static func newTuple(_ values: [BusValue]) -> OpaquePointer {
        let children = values.map { $0.newVariant() as OpaquePointer? }
        return children.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    /// A new floating `a{sv}` of `map`, its keys sorted.
    package static func newDictionary(_ map: [String: BusValue]) -> OpaquePointer {
        array(of: "{sv}", map.sorted { $0.key < $1.key }.map { g_variant_new_dict_entry(g_variant_new_string($0.key), g_variant_new_variant($0.value.newVariant())) })
    }

    /// A new floating array of `elementType` holding `children` (floating, consumed).
    private static func array(of elementType: String, _ children: [OpaquePointer?]) -> OpaquePointer {
        let type = g_variant_type_new(elementType)
        defer { g_variant_type_free(type) }
        return children.withUnsafeBufferPointer { g_variant_new_array(type, $0.baseAddress, gsize($0.count)) }
    }

    private static func string(_ variant: OpaquePointer?) -> String {
        var length: gsize = 0
        guard let variant, let bytes = g_variant_get_string(variant, &length) else { return "" }
        return bytes.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { String(decoding: UnsafeBufferPointer(start: $0, count: Int(length)), as: UTF8.self) }
    }

    /// The strings of an `as`.
    private static func strings(of variant: OpaquePointer) -> [String] {
        (0..<g_variant_n_children(variant)).map { index in
            let child = g_variant_get_child_value(variant, index)
            defer { g_variant_unref(child) }
            return string(child)
        }
    }

    /// The entries of a dictionary (`a{s…}`), each value read by `value`.
    private static func entries<Value>(of variant: OpaquePointer, _ value: (OpaquePointer) -> Value) -> [String: Value] {
        var result: [String: Value] = [:]
        for index in 0..<g_variant_n_children(variant) {
            let entry = g_variant_get_child_value(variant, index)!
            let key = g_variant_get_child_value(entry, 0)!
            let item = g_variant_get_child_value(entry, 1)!
            result[string(key)] = value(item)
            g_variant_unref(item)
            g_variant_unref(key)
            g_variant_unref(entry)
        }
        return result
    }
}
