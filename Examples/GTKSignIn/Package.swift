// swift-tools-version:6.1
// A GTK 3 application that signs its user in with WebAuthSession (README.md beside this file).
// README.md of the repository shows this manifest, less the lines between snippet.hide and snippet.show.
import PackageDescription

let package = Package(
    name: "GTKSignIn",
    dependencies: [
        // By path, named: a path's package is otherwise known by its folder's name, which a clone may change.
        // By URL: .package(url: "https://…/WebAuthSession.git", from: "0.1.0")
        .package(name: "WebAuthSession", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "gtk-sign-in",
            dependencies: [
                .product(name: "WebAuthSession", package: "WebAuthSession"),
                .product(name: "OpenIDConnect", package: "WebAuthSession"),
                // snippet.hide
                "CGTK",
                // snippet.show
            ]),
        // snippet.hide
        // GTK 3 for the application's own window (WebAuthSession's C module is internal to it).
        .systemLibrary(name: "CGTK", pkgConfig: "gtk+-3.0", providers: [.apt(["libgtk-3-dev"])]),
        // snippet.show
    ],
    swiftLanguageModes: [.v6]
)
