/// The process environment of a broker that accepts login scripts (`--allow-scripts`). A script
/// reads its secrets (`env:`, `secret_env:`) from the environment the broker started with, held in
/// memory (``BrokerConfiguration/environment``); the broker cannot know which variables a caller's
/// script will name before the call, so when it starts it takes out of its process environment
/// every variable but those a desktop session and the engine need (``keeps(_:)``): WebKit's web and
/// network processes, which run the provider's JavaScript, and every program started later inherit
/// none of the rest. A script that names a variable kept there is refused.
public enum ScriptEnvironment {
    /// Variables kept by name: the session, the locale, the display, the proxy.
    private static let keptNames: Set<String> = [
        "PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "LANGUAGE", "TZ", "TMPDIR", "DISPLAY", "XAUTHORITY",
        "WAYLAND_DISPLAY", "NO_AT_BRIDGE", "LD_LIBRARY_PATH", "http_proxy", "https_proxy", "all_proxy", "no_proxy",
        "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY",
    ]
    /// Variables kept by prefix: XDG folders, the buses, locale categories, GLib, GTK, GStreamer,
    /// WebKit, fonts and graphics drivers, the certificate store, Snap's.
    private static let keptPrefixes = [
        "XDG_", "DBUS_", "LC_", "G_", "GIO_", "GSETTINGS_", "GTK_", "GDK_", "GST_", "WEBKIT_", "JSC_", "AT_SPI_", "FONTCONFIG_", "LIBGL_",
        "MESA_", "__EGL_", "__GLX_", "SSL_CERT_", "SNAP",
    ]

    /// Whether `name` stays in the process environment of a broker that accepts login scripts.
    public static func keeps(_ name: String) -> Bool {
        keptNames.contains(name) || keptPrefixes.contains { name.hasPrefix($0) }
    }

    /// The names in `environment` that leave the process environment when such a broker starts.
    public static func withheld(from environment: [String: String]) -> [String] {
        environment.keys.filter { !keeps($0) }.sorted()
    }
}
