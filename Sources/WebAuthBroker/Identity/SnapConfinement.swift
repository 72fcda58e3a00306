import Foundation

/// A strictly confined snap, known by the AppArmor label snapd gives its processes:
/// `snap.NAME.APP (enforce)` (or `snap.NAME.hook.HOOK (enforce)`), read from
/// `/proc/PID/attr/apparmor/current` (kernels that stack security modules) or `attr/current`.
///
/// Why snaps get an identity rather than a refusal: the label is set by the kernel when
/// snap-confine starts the app under the profile snapd generated for it, and a confined process
/// cannot change it (AppArmor lets it move only to profiles its own allows); its own mount
/// namespace gives it the snap's files, not the user's stores, so, as for a Flatpak app, the
/// broker is its only way to a token and the label is the one thing about it that it did not
/// choose. The identity is the snap's name (with a parallel install's `_KEY`), not the app: the
/// apps of one snap share its data and its confinement, as a Flatpak's processes share its app
/// ID. Only `(enforce)` counts: a profile in complain mode confines nothing, so its process is
/// no more a snap than any other.
enum SnapConfinement {
    /// The snap's name (`firefox`, `firefox_beta`) when process `process` (a `/proc/PID` folder)
    /// runs confined by one of its profiles, else `nil` (no AppArmor, unconfined, another profile).
    static func name(ofProcess process: String) -> String? {
        for file in ["attr/apparmor/current", "attr/current"] {
            guard let data = FileManager.default.contents(atPath: "\(process)/\(file)"), data.count <= 4096 else { continue }
            let label = String(decoding: data, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: "\n\0"))
            return name(inLabel: label)
        }
        return nil
    }

    /// The snap's name in `label`, when it is a snap app's or hook's profile in enforce mode.
    static func name(inLabel label: String) -> String? {
        guard label.hasSuffix(" (enforce)") else { return nil }
        let parts = label.dropLast(" (enforce)".count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 || (parts.count == 4 && parts[2] == "hook"), parts[0] == "snap" else { return nil }
        let name = parts[1].split(separator: "_", omittingEmptySubsequences: false)
        let lowercase = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyz0123456789")
        func consists(_ text: Substring, of allowed: CharacterSet) -> Bool {
            !text.isEmpty && text.unicodeScalars.allSatisfy { allowed.contains($0) }
        }
        guard (1...2).contains(name.count), consists(name[0], of: lowercase.union(CharacterSet(charactersIn: "-"))),
              name.count == 1 || consists(name[1], of: lowercase),
              consists(parts[parts.count - 1], of: lowercase.union(CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZ-"))) else { return nil }
        return String(parts[1])
    }
}
