internal import CWebKitGTK

/// WebKit's runtime features (`webkit_settings_get_all_features`), switched off in a view's
/// settings by their identifier: the one place that walks WebKit's feature list.
@WebKitActor
enum WebKitFeatures {
    /// Switches off each feature of `identifiers` in `settings`; an identifier this WebKit does not
    /// have is passed over (a later WebKit may rename or drop a feature).
    static func switchOff(_ identifiers: Set<String>, in settings: UnsafeMutablePointer<WebKitSettings>) {
        guard let features = webkit_settings_get_all_features() else { return }
        defer { webkit_feature_list_unref(features) }
        for index in 0..<webkit_feature_list_get_length(features) {
            guard let feature = webkit_feature_list_get(features, index), let identifier = webkit_feature_get_identifier(feature),
                  identifiers.contains(String(cString: identifier)) else { continue }
            webkit_settings_set_feature_enabled(settings, feature, 0)
        }
    }
}
