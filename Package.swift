// swift-tools-version:6.1
import Foundation
import PackageDescription

/// The engine's link flags that put the flite voice WebKitGTK links (speech synthesis) among
/// `webauth-engine`'s own libraries, when the system has it. Its 31,288 symbol relocations all
/// bind within itself, and the dynamic loader looks each one up from the start of the process's
/// library list, where it sat 88th: 58% of the loader's lookups at each start (bench/NOTES.md,
/// "The cold start, fifth pass"). Named by the executable, it sits 36th.
let fliteFirst: [LinkerSetting] = {
    let voice = "libflite_cmu_time_awb.so.1"
    let folders = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"]
    guard folders.contains(where: { FileManager.default.fileExists(atPath: "\($0)/\(voice)") }) else { return [] }
    return [.unsafeFlags(["-Xlinker", "--push-state", "-Xlinker", "--no-as-needed", "-Xlinker", "-l:\(voice)", "-Xlinker", "--pop-state"])]
}()

let package = Package(
    name: "WebAuthSession",
    products: [
        .library(name: "OpenIDConnect", targets: ["OpenIDConnect"]),
        .library(name: "OpenIDConnectURLSession", targets: ["OpenIDConnectURLSession"]),
        .library(name: "SecretGate", targets: ["SecretGate"]),
        .library(name: "OpenIDSignIn", targets: ["OpenIDSignIn"]),
        .library(name: "WebAuthn", targets: ["WebAuthn"]),
        .library(name: "WebAuthSession", targets: ["WebAuthSession"]),
        .library(name: "DevProvider", targets: ["DevProvider"]),
        .library(name: "WebAuthBroker", targets: ["WebAuthBroker"]),
        .executable(name: "webauth", targets: ["webauth"]),
        .executable(name: "webauth-tokens", targets: ["webauth-tokens"]),
        .executable(name: "webauth-engine", targets: ["webauth-engine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CWebKitGTK",
            path: "CShims",
            pkgConfig: "webkit2gtk-4.1",
            providers: [.apt(["libwebkit2gtk-4.1-dev", "libgtk-3-dev"])]
        ),
        // GLib, GIO and libsoup 3 without WebKit or GTK: the GLib kit and the engine's
        // own HTTP, which the light `webauth` links; CWebKitGTK's header includes this one.
        .systemLibrary(
            name: "CSoup",
            path: "CShims/CSoup",
            pkgConfig: "libsoup-3.0",
            providers: [.apt(["libsoup-3.0-dev"])]
        ),
        .systemLibrary(
            name: "CSecret",
            path: "CShims/CSecret",
            pkgConfig: "libsecret-1",
            providers: [.apt(["libsecret-1-dev"])]
        ),
        .systemLibrary(
            name: "CGnuTLS",
            path: "CShims/CGnuTLS",
            pkgConfig: "gnutls",
            providers: [.apt(["libgnutls28-dev"])]
        ),
        .systemLibrary(
            name: "CQREncode",
            path: "CShims/CQREncode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        // The sign-in broker's D-Bus: GIO, which WebKitGTK links already.
        .systemLibrary(
            name: "CGDBus",
            path: "CShims/CGDBus",
            pkgConfig: "gio-2.0",
            providers: [.apt(["libglib2.0-dev"])]
        ),
        // A child process tied to the thread that starts it (Linux's parent-death signal), for the
        // private Xvfb `webauth` hands to the engine: one header, no library.
        .systemLibrary(name: "CChildProcess", path: "CShims/CChildProcess"),
        .systemLibrary(
            name: "CFido2",
            path: "CShims/CFido2",
            pkgConfig: "libfido2",
            providers: [.apt(["libfido2-dev"])]
        ),
        // What the modules share and no one module owns: terminal-safe text, "did you mean", private
        // files, locks, blocking calls on a thread of their own, reads that survive a signal, RFC 3986's
        // host rules, webauth's version. Package access only.
        .target(name: "WebAuthSupport"),
        // The one rule for every secret that leaves (a typed value, a password, a certificate, a token,
        // a variable, a passkey's answer, a PIN): who may receive it, asked by the engine, the CLI and the broker.
        .target(name: "SecretGate", dependencies: ["WebAuthSupport"]),
        // A private Xvfb for machines with no display: its cookie, its start, the one `webauth`
        // starts and hands to the engine, and why none could be had. No GTK, no WebKit.
        .target(name: "PrivateDisplay", dependencies: ["WebAuthSupport", "CChildProcess"]),
        .target(
            name: "OpenIDConnect",
            dependencies: [
                "WebAuthSupport",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                // private_key_jwt with a key on a PKCS#11 token: GnuTLS, not GLib
                .target(name: "CGnuTLS", condition: .when(platforms: [.linux])),
            ]
        ),
        // The protocol's requests over Foundation's URLSession (libcurl underneath): apart from the
        // protocol, so that a program sending with libsoup (webauth-tokens) loads no libcurl.
        .target(name: "OpenIDConnectURLSession", dependencies: ["OpenIDConnect"]),
        // A sign-in from discovery to validated tokens through whatever user agent shows the
        // provider's page (the system browser with its own loopback listener, the device grant and
        // its QR code, a test's double): no WebKit, no GLib, so an app that needs only these links
        // no engine.
        .target(
            name: "OpenIDSignIn",
            dependencies: [
                "OpenIDConnect",
                "OpenIDConnectURLSession",  // the default HTTP client, re-exported
                "WebAuthSupport",
                "CQREncode",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The files a person writes for webauth (login scripts with their TOTP codes, batch files, the
        // configuration file): no WebKit, no GTK, so the fuzzer links it.
        .target(
            name: "SignInFiles",
            dependencies: [
                "OpenIDConnect",
                "WebAuthn",
                "WebAuthSupport",
                .product(name: "Yams", package: "Yams"),
                .product(name: "Crypto", package: "swift-crypto"),  // TOTP's HMAC
            ]
        ),
        // Web Authentication without WebKit: CBOR, COSE keys, authenticator data,
        // clientDataJSON, the rpId rules, the client's steps, the virtual authenticator and CTAP2
        // over CTAPHID, so the fuzzer and DevProvider link it and it is tested without a display.
        .target(
            name: "WebAuthn",
            dependencies: [
                "OpenIDConnect",
                "SecretGate",
                "WebAuthSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),  // AES-CBC of CTAP2's PIN protocol 1
            ]
        ),
        // FIDO2 security keys through libfido2: real keys over USB HID, and a software
        // key behind libfido2's custom I/O, so the real library's path is tested here.
        .target(
            name: "SecurityKeys",
            dependencies: ["WebAuthn", "OpenIDConnect", "SecretGate", "WebAuthSupport", "CFido2"]
        ),
        // The GLib lifetime kit: GObject references, signal connections, GErrors, a main context
        // on a thread of its own. The engine, its HTTP and the broker use it; no WebKit, no GTK.
        // A GObject reference and a GError owned by Swift, on GLib alone (the front links no libsoup).
        .target(name: "GLibLifetimes", dependencies: ["CGDBus"]),
        .target(name: "GLibKit", dependencies: ["CSoup", "GLibLifetimes"]),
        // The engine's own HTTP (libsoup 3): proxies, the CA file, the client certificate. The page
        // and the protocol share them; the light commands refresh through it without WebKit.
        .target(name: "WebAuthNetwork", dependencies: ["OpenIDConnect", "WebAuthSupport", "GLibKit", "CSoup", "CGnuTLS", .product(name: "Logging", package: "swift-log")]),
        // The Secret Service (libsecret) store of sign-ins, without WebKit.
        .target(name: "WebAuthKeyring", dependencies: ["OpenIDConnect", "WebAuthSupport", "GLibKit", "CSecret"]),
        // The exit statuses webauth and the broker answer with, and how protocol and storage
        // failures map to them.
        .target(name: "WebAuthExitStatus", dependencies: ["OpenIDConnect"]),
        .target(
            name: "WebAuthSession",
            dependencies: [
                "CWebKitGTK",
                "GLibKit",
                "PrivateDisplay",
                "WebAuthNetwork",
                "WebAuthKeyring",
                "WebAuthExitStatus",
                "WebAuthn",
                "SecurityKeys",
                "CSecret",
                "OpenIDConnect",
                "OpenIDSignIn",
                "SignInFiles",
                "SecretGate",
                "WebAuthSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The broker's bus names, values and errors, and one GetToken call: GIO alone, so that
        // `webauth`'s shortcut asks the broker before any large library loads.
        .target(name: "BrokerWire", dependencies: ["CGDBus", "GLibLifetimes"]),
        // The broker's bus contract: names, options decoding, results. GVariant but no WebKit, so
        // the fuzzer links it.
        .target(name: "WebAuthBrokerContract", dependencies: ["BrokerWire", "OpenIDConnect", "WebAuthSupport", "CGDBus"]),
        // webauth's own side of the broker: GetToken of a running broker, without WebKit.
        .target(name: "WebAuthBrokerClient", dependencies: ["WebAuthBrokerContract", "WebAuthExitStatus", "OpenIDConnect"]),
        // The sign-in broker on the session bus: a layer beside the CLI, which
        // `webauth broker` only starts.
        .target(
            name: "WebAuthBroker",
            dependencies: [
                "WebAuthBrokerContract",
                "WebAuthBrokerClient",
                "WebAuthSession",
                "GLibKit",
                "OpenIDConnect",
                "SecretGate",
                "SignInFiles",
                "WebAuthSupport",
                "WebAuthExitStatus",
                "CGDBus",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "DevProvider",
            dependencies: [
                "OpenIDConnect",
                "WebAuthn",
                "SignInFiles",  // TOTP, the second factor of its login page
                "WebAuthSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What the light `webauth` and the engine's commands share: the token commands, the
        // credential helpers, the option groups, exit statuses and advice. No WebKit, no GTK.
        .target(
            name: "WebAuthCommandLine",
            dependencies: [
                "OpenIDConnect",
                "SecretGate",
                "SignInFiles",
                "WebAuthSupport",
                "WebAuthNetwork",
                "WebAuthKeyring",
                "WebAuthExitStatus",
                "WebAuthBrokerClient",
                "WebAuthBrokerContract",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // What `webauth` answers before any large library loads (a fresh token, its version), and
        // the hand-over of everything else to the executable that runs it.
        .target(name: "WebAuthFront", dependencies: ["SecretGate", "BrokerWire", "PrivateDisplay", "WebAuthSupport", "GLibLifetimes", "CGDBus"]),
        // `webauth`: the shortcut, else `webauth-tokens`, as it was called.
        .executableTarget(name: "webauth", dependencies: ["WebAuthFront"]),
        // `webauth-tokens`: token, env, exec, status, userinfo and the credential helpers, refreshes
        // and the keyring included, without loading WebKitGTK or GTK; every other command is
        // `webauth-engine`'s, which it executes.
        .executableTarget(
            name: "webauth-tokens",
            dependencies: [
                "WebAuthCommandLine",
                "WebAuthFront",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The whole command tree, with the engine: `webauth` executes it for sign-ins, the
        // broker, the demo, the manual and help.
        .executableTarget(
            name: "webauth-engine",
            dependencies: [
                "WebAuthCommandLine",
                "WebAuthSession",
                "WebAuthBroker",
                "WebAuthBrokerContract",
                "OpenIDConnect",
                "SignInFiles",
                "WebAuthSupport",
                "WebAuthExitStatus",
                "DevProvider",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ],
            linkerSettings: fliteFirst
        ),
        .executableTarget(
            name: "webauth-bench",
            dependencies: [
                "WebAuthSession",
                "OpenIDConnect",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "bench/webauth-bench"
        ),
        .executableTarget(name: "webauth-fuzz", dependencies: ["OpenIDConnect", "SecretGate", "SignInFiles", "WebAuthBrokerContract", "CGDBus", "WebAuthn"], path: "fuzz/webauth-fuzz"),
        .testTarget(
            name: "WebAuthnTests",
            dependencies: ["WebAuthn", "WebAuthnTestSupport", "OpenIDConnect", "SecretGate", "WebAuthSupport", "TestSupport", .product(name: "Crypto", package: "swift-crypto")],
            exclude: ["Fixtures"]  // read by path: the independent verifier's script
        ),
        // The sign-in through the user-agent seam against the real DevProvider, with no WebKit.
        .testTarget(name: "OpenIDSignInTests", dependencies: ["OpenIDSignIn", "OpenIDConnect", "DevProvider", "TestSupport"]),
        .testTarget(
            name: "OpenIDConnectTests",
            dependencies: [
                "OpenIDConnect",
                "OpenIDConnectURLSession",
                "WebAuthSupport",
                "DevProvider",
                "DevProviderTestSupport",
                "TestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            exclude: ["Fixtures"]  // read by path (#filePath), as the files a user's disk holds
        ),
        // One test target per module, each building only what its module needs: the development
        // provider's own tests need no WebKit; the security keys' need no Hummingbird; the broker's
        // that run no `webauth` need neither the command line nor a provider.
        .testTarget(name: "DevProviderTests", dependencies: ["DevProvider", "DevProviderTestSupport", "OpenIDConnect", "OpenIDConnectURLSession", "SignInFiles",
                                                             .product(name: "JWTKit", package: "jwt-kit")]),
        .testTarget(name: "SecurityKeysTests", dependencies: ["SecurityKeys", "WebAuthn", "WebAuthnTestSupport", "OpenIDConnect"]),
        .testTarget(name: "WebAuthBrokerTests", dependencies: ["WebAuthBroker", "WebAuthBrokerContract"]),
        // What the provider's tests and the protocol's tests against it share: the provider over raw HTTP.
        .target(name: "DevProviderTestSupport", dependencies: ["DevProvider", "OpenIDConnect", "OpenIDConnectURLSession"], path: "Tests/DevProviderTestSupport"),
        // What the WebAuthn client's tests and the security keys' share: a page's passkey options.
        .target(name: "WebAuthnTestSupport", dependencies: ["WebAuthn", "OpenIDConnect"], path: "Tests/WebAuthnTestSupport"),
        .testTarget(name: "SecretGateTests", dependencies: ["SecretGate"]),
        .testTarget(name: "WebAuthSupportTests", dependencies: ["WebAuthSupport"]),
        // The files' parsers and their JSON schemas, with no WebKit (the scripts run on the engine in WebAuthSessionTests).
        .testTarget(name: "SignInFilesTests", dependencies: ["SignInFiles", "WebAuthn", "TestSupport"]),
        // The test process's last exit handler, reserved as the test binary loads, so LeftoverProcesses
        // checks after every other handler that the suite left no process behind
        .target(name: "CTestProcesses", path: "Tests/CTestProcesses"),
        .target(name: "TestSupport", dependencies: [
            "OpenIDConnect", "OpenIDConnectURLSession", "WebAuthSupport", "CTestProcesses",
            // client key pairs for private_key_jwt tests
            .product(name: "Crypto", package: "swift-crypto"), .product(name: "CryptoExtras", package: "swift-crypto"),
        ], path: "Tests/TestSupport"),
        .testTarget(name: "WebAuthCLITests", dependencies: ["webauth", "webauth-tokens", "webauth-engine", "WebAuthFront", "WebAuthCommandLine", "webauth-fuzz", "OpenIDConnect", "OpenIDConnectURLSession", "SecretGate", "SignInFiles", "WebAuthSupport", "DevProvider", "TestSupport",
                                                     "WebAuthBroker", "WebAuthBrokerContract", "CGDBus"]),
        .testTarget(
            name: "WebAuthSessionTests",
            dependencies: ["WebAuthSession", "OpenIDSignIn", "OpenIDConnect", "SecretGate", "DevProvider", "CWebKitGTK", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Existential types are spelled `any P` everywhere (as swift-subprocess builds).
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
