internal import CWebKitGTK

/// What a screen reader says for a widget whose visible text is not enough (a lock icon, a
/// symbol key such as "⌫" or "A+"): a name, and optionally a description, on its ATK object.
@WebKitActor
enum AccessibleName {
    /// Gives `widget` the accessible `name`, and `description` when there is one.
    static func set(_ widget: UnsafeMutablePointer<GtkWidget>, _ name: String, description: String? = nil) {
        guard let object = gtk_widget_get_accessible(widget) else { return }
        atk_object_set_name(object, name)
        if let description { atk_object_set_description(object, description) }
    }
}
