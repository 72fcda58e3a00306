internal import CWebKitGTK

extension ProxyRoute {
    /// Makes the web views of `manager` take this route.
    func apply(to manager: UnsafeMutablePointer<WebKitWebsiteDataManager>) {
        switch self {
        case .system:
            webkit_website_data_manager_set_network_proxy_settings(manager, WEBKIT_NETWORK_PROXY_MODE_DEFAULT, nil)
        case .direct:
            webkit_website_data_manager_set_network_proxy_settings(manager, WEBKIT_NETWORK_PROXY_MODE_NO_PROXY, nil)
        case .proxies(let proxies, let ignoring):
            let settings = withCStringList(ignoring) { webkit_network_proxy_settings_new(nil, constCStringList($0))! }
            defer { webkit_network_proxy_settings_free(settings) }
            for (scheme, endpoint) in proxies {
                webkit_network_proxy_settings_add_proxy_for_scheme(settings, scheme, endpoint.url)
            }
            webkit_website_data_manager_set_network_proxy_settings(manager, WEBKIT_NETWORK_PROXY_MODE_CUSTOM, settings)
        }
    }
}
