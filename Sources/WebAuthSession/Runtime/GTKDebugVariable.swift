import Foundation

/// `GTK_DEBUG` without what opens GTK's inspector: `interactive` (and `all`, which includes it)
/// makes `gtk_init` open the inspector, a window with which a kiosk visitor could read and change
/// any page. A kiosk program removes them before GTK starts (`GTKEnvironment.removeInspector()`); `KioskLockdown` also shuts an
/// inspector that is already open when a kiosk window appears.
package enum GTKDebugVariable {
    /// The variable's name.
    package static let name = "GTK_DEBUG"

    /// `value` without `interactive` and `all` (GTK splits the list on `:`, `;`, `,`, spaces and
    /// tabs); `nil` when nothing is left.
    package static func withoutInspector(_ value: String) -> String? {
        let kept = value.split(whereSeparator: { ":;, \t".contains($0) })
            .filter { !["interactive", "all"].contains($0.lowercased()) }
        return kept.isEmpty ? nil : kept.joined(separator: ",")
    }
}
