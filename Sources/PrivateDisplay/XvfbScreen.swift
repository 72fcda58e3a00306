/// The screen a private Xvfb offers: its size in pixels, and whether clients may render with GL.
package struct XvfbScreen: Sendable, Hashable {
    /// Width in pixels.
    package var width: Int
    /// Height in pixels.
    package var height: Int
    /// Whether the server runs its GLX extension. Without it Xvfb starts in half the time (it no
    /// longer loads Mesa's software renderer and LLVM), and nothing on it renders with GL.
    package var offersGL: Bool

    /// A screen of `width` by `height` pixels, with GL or not.
    package init(width: Int, height: Int, offersGL: Bool) {
        self.width = width
        self.height = height
        self.offersGL = offersGL
    }

    /// What the engine's default configuration asks for headless pages: 1280×1024, no GL.
    package static let headlessDefault = XvfbScreen(width: 1280, height: 1024, offersGL: false)
}
