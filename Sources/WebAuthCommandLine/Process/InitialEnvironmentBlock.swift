import Foundation

/// The environment block the kernel wrote into this process's memory when it started, which
/// `/proc/PID/environ` shows to anyone of the same user (a process viewer, a crash reporter).
/// `unsetenv` only takes a variable out of `environ`, the C library's list of pointers: the block
/// keeps its `NAME=value` until someone overwrites it (``blankValues(of:)``).
///
/// The block is found from `/proc/self/stat` (its fields 50 and 51, `env_start` and `env_end`), so
/// it is found whenever asked, whatever `setenv` or `unsetenv` did to `environ` before. Without
/// `/proc` nothing is blanked, and nothing shows there either.
package enum InitialEnvironmentBlock {
    /// Overwrites with zero bytes the value of every entry of the block named in `names`: `/proc`
    /// then shows `NAME=` followed by as many empty entries as the value had bytes (its length
    /// still shows, as a logged secret's would). The value must have been read before (the
    /// process's own copy of its environment is not the block once a variable was set anew).
    package static func blankValues(of names: Set<String>) {
        guard !names.isEmpty, let (start, end) = bounds(), end > start, let base = UnsafeMutablePointer<UInt8>(bitPattern: start) else { return }
        let block = UnsafeMutableBufferPointer(start: base, count: end - start)
        var entry = 0
        while entry < block.count {
            let entryEnd = block[entry...].firstIndex(of: 0) ?? block.count
            if let equals = block[entry..<entryEnd].firstIndex(of: UInt8(ascii: "=")),
               names.contains(String(decoding: UnsafeBufferPointer(rebasing: block[entry..<equals]), as: UTF8.self)) {
                for index in (equals + 1)..<entryEnd { block[index] = 0 }
            }
            entry = entryEnd + 1
        }
    }

    /// `env_start` and `env_end` of `/proc/self/stat`; nil when it cannot be read or says nothing.
    private static func bounds() -> (start: Int, end: Int)? {
        guard let data = FileManager.default.contents(atPath: "/proc/self/stat") else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        // The second field, the command's name in parentheses, may hold spaces and parentheses itself.
        guard let nameEnd = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: nameEnd)...].split(separator: " ")  // fields[0] is field 3
        guard fields.count > 48, let start = Int(fields[47]), let end = Int(fields[48]), start > 0 else { return nil }
        return (start, end)
    }
}
