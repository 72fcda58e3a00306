import Foundation

/// The `.flatpak-info` Flatpak puts at the root of an app's sandbox: a key file whose
/// `[Application]` group names the app (`name=org.example.App`). Read from
/// `/proc/PID/root/.flatpak-info`, which the app cannot write (Flatpak mounts it read-only).
///
/// A file that is there but does not hold up (unreadable, not a regular file, too large, naming
/// no valid app ID) is an error, never "no Flatpak": the caller would then be named by a path
/// inside its own root, which it chose.
enum FlatpakInfo {
    /// The largest file read: Flatpak's own are a few hundred bytes.
    static let maximumSize = 65_536

    /// The app ID the file at `path` names, or `nil` when there is no such file.
    /// - Throws: ``CallerIdentityError/untrusted(_:)`` for a file that is there but names no app.
    static func appID(in path: String) throws(CallerIdentityError) -> String? {
        guard let text = try contents(of: path) else { return nil }
        var group = ""
        for line in text.split(whereSeparator: \.isNewline) {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("[") && text.hasSuffix("]") {
                group = String(text.dropFirst().dropLast())
            } else if group == "Application", let equals = text.firstIndex(of: "="),
                      text[..<equals].trimmingCharacters(in: .whitespaces) == "name" {
                let name = text[text.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                guard isValidAppID(name) else { throw .untrusted("its .flatpak-info names no valid app ID") }
                return name
            }
        }
        throw .untrusted("its .flatpak-info names no app ([Application] name=)")
    }

    /// Flatpak's own rule for an app ID (`flatpak_is_valid_name`): at most 255 characters, at
    /// least three elements separated by dots, each of ASCII letters, digits, `_` (and `-` in the
    /// last), none starting with a digit. So it never reads as a path, `webauth` or a snap.
    static func isValidAppID(_ name: String) -> Bool {
        let elements = name.split(separator: ".", omittingEmptySubsequences: false)
        guard name.utf8.count <= 255, elements.count >= 3 else { return false }
        return elements.enumerated().allSatisfy { index, element in
            guard let first = element.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
            let allowed = index == elements.count - 1 ? CharacterSet(charactersIn: "_-") : CharacterSet(charactersIn: "_")
            return element.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || allowed.contains($0)) }
        }
    }

    /// The file's text, or `nil` when there is none. Opened without following a symbolic link
    /// (an absolute link under `/proc/PID/root` would lead into the broker's own files) and
    /// without blocking (a FIFO would hold the caller's lookup forever).
    private static func contents(of path: String) throws(CallerIdentityError) -> String? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw .untrusted("its .flatpak-info cannot be read (\(String(cString: strerror(errno))))")
        }
        defer { close(descriptor) }
        let data: [UInt8]
        do throws(CappedFileRead.Problem) { data = try CappedFileRead.bytes(of: descriptor, atMost: maximumSize) } catch {
            switch error {
            case .notRegularFile: throw .untrusted("its .flatpak-info is not a regular file")
            case .tooLarge: throw .untrusted("its .flatpak-info is larger than \(maximumSize / 1024) KiB")
            case .unreadable: throw .untrusted("its .flatpak-info cannot be read")
            }
        }
        return String(decoding: data, as: UTF8.self)
    }
}
