import Foundation

/// The `.flatpak-info` Flatpak puts at the root of an app's sandbox: a key file whose
/// `[Application]` group names the app (`name=org.example.App`). Read from
/// `/proc/PID/root/.flatpak-info`, which the app cannot write (Flatpak mounts it read-only).
enum FlatpakInfo {
    /// The app ID the file at `path` names, or `nil` when there is no such file or it names none.
    static func appID(in path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path), data.count <= 65_536 else { return nil }
        var group = ""
        for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("[") && text.hasSuffix("]") {
                group = String(text.dropFirst().dropLast())
            } else if group == "Application", let equals = text.firstIndex(of: "="),
                      text[..<equals].trimmingCharacters(in: .whitespaces) == "name" {
                let name = text[text.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                return name.isEmpty ? nil : name
            }
        }
        return nil
    }
}
