/// The window a sign-in window is transient for and modal to: a GTK 3 window of the host
/// application, or a window of another program named as xdg-desktop-portal names windows
/// (`x11:<hex XID>`, `wayland:<exported handle>`), as the sign-in broker's callers give it.
public struct ParentWindow: @unchecked Sendable, Hashable {
    // @unchecked: a GTK window's pointer is only an address here; it is dereferenced on the GTK
    // thread alone, after `GTK_IS_WINDOW` has checked it.

    /// Which window it is.
    enum Kind: Hashable {
        /// A `GtkWindow *` of this process.
        case gtkWindow(UnsafeMutableRawPointer)
        /// Another program's X11 window.
        case x11(windowID: UInt)
        /// Another program's Wayland surface, exported through xdg-foreign under this handle.
        case wayland(handle: String)
    }

    let kind: Kind

    /// Wraps a `GtkWindow *`. It is checked when the session starts.
    public init(gtkWindow: UnsafeMutableRawPointer) {
        kind = .gtkWindow(gtkWindow)
    }

    /// Another program's window, by xdg-desktop-portal's identifier: `x11:` and the X11 window ID
    /// in hexadecimal (`x11:3a00007`), or `wayland:` and a handle the program exported through
    /// xdg-foreign. An empty identifier names no window: `nil`, a plain window.
    /// - Throws: ``ParentWindowError`` for an identifier that names no window this way. Whether the
    ///   window exists is checked when the session starts (``WebAuthenticationError/invalidOption(_:)-swift.enum.case``).
    public static func portal(_ identifier: String) throws(ParentWindowError) -> ParentWindow? {
        guard !identifier.isEmpty else { return nil }
        guard identifier.utf8.count <= 256, let colon = identifier.firstIndex(of: ":") else { throw .notAWindowIdentifier }
        let value = identifier[identifier.index(after: colon)...]
        switch identifier[..<colon] {
        case "x11":
            let digits = value.hasPrefix("0x") || value.hasPrefix("0X") ? value.dropFirst(2) : value
            guard !digits.isEmpty, digits.count <= 8, let id = UInt(digits, radix: 16), id != 0 else { throw .invalidX11WindowID }
            return ParentWindow(kind: .x11(windowID: id))
        case "wayland":
            // Printable ASCII, spaces included: mutter's handles are 32 random printable characters.
            guard !value.isEmpty, value.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) else { throw .invalidWaylandHandle }
            return ParentWindow(kind: .wayland(handle: String(value)))
        default:
            throw .unknownWindowSystem
        }
    }

    private init(kind: Kind) {
        self.kind = kind
    }

    /// xdg-desktop-portal's identifier of another program's window; `nil` for a GTK window of this process.
    public var portalIdentifier: String? {
        switch kind {
        case .gtkWindow: nil
        case .x11(let id): "x11:" + String(id, radix: 16)
        case .wayland(let handle): "wayland:" + handle
        }
    }
}

/// Why a window identifier (``ParentWindow/portal(_:)``) names no window. The identifier is
/// not repeated: a caller's text is not echoed into messages.
public enum ParentWindowError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not `system:value` (or longer than 256 bytes).
    case notAWindowIdentifier
    /// Neither `x11:` nor `wayland:`.
    case unknownWindowSystem
    /// `x11:` without a window ID of 1 to 8 hexadecimal digits (not 0).
    case invalidX11WindowID
    /// `wayland:` without a handle (printable ASCII, spaces included).
    case invalidWaylandHandle

    public var description: String {
        switch self {
        case .notAWindowIdentifier: "the parent window is not a window identifier (x11:XID in hexadecimal, or wayland:HANDLE)"
        case .unknownWindowSystem: "the parent window names neither x11 nor wayland"
        case .invalidX11WindowID: "the parent window's X11 window ID is not 1 to 8 hexadecimal digits"
        case .invalidWaylandHandle: "the parent window's Wayland handle is empty or holds other than printable ASCII"
        }
    }
}
