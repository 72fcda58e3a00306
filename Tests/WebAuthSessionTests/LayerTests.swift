import Foundation
import Testing

/// The layers docs/ARCHITECTURE.md draws, held by the build: the package's modules depend on one
/// another only along the allowed arrows, and inside the engine (Sources/WebAuthSession) a file
/// names only types of its own folder and of the folders below it. Both tables are read as
/// arrows: a module or folder may use what its arrows reach, directly or through others.
@Suite("Layers")
struct LayerTests {
    /// The package's root, three folders above this file.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The package's targets (C modules and test targets included) and the targets each may depend
    /// on; docs/ARCHITECTURE.md draws the same graph. A new target, or a new dependency that no
    /// arrow reaches, is added here first, where the reviewer sees it.
    static let moduleArrows: [String: [String]] = [
        // C modules
        "CWebKitGTK": [], "CSoup": [], "CSecret": [], "CGnuTLS": [], "CQREncode": [], "CGDBus": [], "CFido2": [],
        "CChildProcess": [],
        // what every module may share (package access), the protocol, who may receive a secret,
        // and what signs in through any user agent
        "WebAuthSupport": [],
        "OpenIDConnect": ["WebAuthSupport", "CGnuTLS"],
        "SecretGate": ["WebAuthSupport"],
        // a private Xvfb, which the front starts for the engine: no GTK
        "PrivateDisplay": ["WebAuthSupport", "CChildProcess"],
        // URLSession (libcurl) beside the protocol, never under the token commands
        "OpenIDConnectURLSession": ["OpenIDConnect"],
        "OpenIDSignIn": ["OpenIDConnectURLSession", "CQREncode"],
        "WebAuthn": ["SecretGate", "OpenIDConnect"],
        "SecurityKeys": ["WebAuthn", "CFido2"],
        "SignInFiles": ["WebAuthn"],
        // GLib without WebKit, and what stands on it
        "GLibLifetimes": ["CGDBus"],
        "GLibKit": ["CSoup", "GLibLifetimes"],
        "WebAuthNetwork": ["OpenIDConnect", "GLibKit"],
        "WebAuthKeyring": ["OpenIDConnect", "GLibKit", "CSecret"],
        "WebAuthExitStatus": ["OpenIDConnect"],
        // the engine, the only module with WebKit
        "WebAuthSession": ["CWebKitGTK", "PrivateDisplay", "WebAuthNetwork", "WebAuthKeyring", "WebAuthExitStatus", "SecurityKeys",
                           "OpenIDSignIn", "SignInFiles"],
        // the broker: its wire (GIO alone), its contract and webauth's client need no engine
        "BrokerWire": ["GLibLifetimes"],
        "WebAuthBrokerContract": ["BrokerWire", "OpenIDConnect"],
        "WebAuthBrokerClient": ["WebAuthBrokerContract", "WebAuthExitStatus"],
        "WebAuthBroker": ["WebAuthBrokerClient", "WebAuthSession"],
        "DevProvider": ["SignInFiles"],
        // the command line: the front's shortcut reaches neither the protocol nor GLib's HTTP, the
        // token commands never reach the engine
        "WebAuthFront": ["SecretGate", "BrokerWire", "PrivateDisplay"],
        "webauth": ["WebAuthFront"],
        "WebAuthCommandLine": ["SignInFiles", "WebAuthNetwork", "WebAuthKeyring", "WebAuthBrokerClient"],
        "webauth-tokens": ["WebAuthCommandLine", "WebAuthFront"],
        "webauth-engine": ["WebAuthCommandLine", "WebAuthBroker", "DevProvider"],
        "webauth-bench": ["WebAuthSession"],
        "webauth-fuzz": ["SignInFiles", "WebAuthBrokerContract"],
        // tests
        "CTestProcesses": [],
        "TestSupport": ["OpenIDConnectURLSession", "CTestProcesses"],
        "WebAuthnTestSupport": ["WebAuthn"],
        "DevProviderTestSupport": ["DevProvider", "OpenIDConnectURLSession"],
        "WebAuthSupportTests": ["WebAuthSupport"],
        "SecretGateTests": ["SecretGate"],
        "WebAuthnTests": ["WebAuthnTestSupport", "TestSupport"],
        "SecurityKeysTests": ["SecurityKeys", "WebAuthnTestSupport"],
        "SignInFilesTests": ["SignInFiles", "TestSupport"],
        "DevProviderTests": ["DevProviderTestSupport"],
        "OpenIDSignInTests": ["OpenIDSignIn", "DevProvider", "TestSupport"],
        "OpenIDConnectTests": ["DevProviderTestSupport", "TestSupport"],
        "WebAuthBrokerTests": ["WebAuthBroker"],
        "WebAuthCLITests": ["webauth", "webauth-tokens", "webauth-engine", "webauth-fuzz", "TestSupport"],
        "WebAuthSessionTests": ["WebAuthSession", "DevProvider", "TestSupport"],
    ]

    /// The engine's folders (under Sources/WebAuthSession) and the folders each may name types of,
    /// bottom to top; "." is the module's root (its re-exports).
    static let folderArrows: [String: [String]] = [
        "Session": [],  // the public vocabulary and the sign-in's rules: plain values, no WebKit
        "Runtime": ["Session"],  // the loop thread and its actor, the display, the process environment, shutdown
        "GObject": ["Runtime"],  // WebKit's and GTK's signals and lifetimes
        "Network": ["Runtime"],  // the page's languages, the loopback listener of a form_post redirect
        "Passkeys": ["GObject"],  // the page's WebAuthn scripts and requests, the security-key dialog
        "WebKit": ["GObject", "Network", "Passkeys"],  // the sign-in page and what pages share
        "Presentation": ["WebKit"],  // the popup and the kiosk's frame around a page
        "Facade": ["Presentation"],  // WebAuthenticationSession and WebAuthEngine, the engine's public API
        "Scripting": ["Facade"],  // page scripting and login scripts on a session
        "SignIn": ["Scripting"],  // OpenID Connect on the engine, the pool
        "Kiosk": ["SignIn"],  // the kiosk station: visitor after visitor
        ".": [],
    ]

    /// Files whose layer is not the folder they are in, and the folder whose layer they are in:
    /// none today; an entry here is a move that is owed.
    static let filesInAnotherLayer: [String: String] = [:]

    @Test("every target depends, in Package.swift and in its imports, only on what its arrows reach")
    func modulesFollowTheArrows() throws {
        let manifest = try String(contentsOf: Self.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let targets = try #require(PackageTargets(manifest: manifest))
        #expect(targets.all.count > 20, "the targets were found")
        #expect(Self.cycle(in: Self.moduleArrows) == nil, "the module table has no cycle")
        var offences: [String] = []
        for target in targets.all {
            guard Self.moduleArrows[target.name] != nil else {
                offences.append("\(target.name): a target the table does not place (LayerTests.moduleArrows)")
                continue
            }
            let allowed = Self.reach(from: target.name, in: Self.moduleArrows)
            for dependency in target.dependencies where !allowed.contains(dependency) {
                offences.append("Package.swift: \(target.name) depends on \(dependency), which no arrow reaches")
            }
            for (file, imported) in try Self.imports(under: target.folder) {
                // an executable's module is its name with `_` for `-`
                guard let module = Self.moduleArrows.keys.first(where: { $0.replacingOccurrences(of: "-", with: "_") == imported }),
                      module != target.name, !allowed.contains(module) else { continue }
                offences.append("\(file): imports \(module), which \(target.name) may not use")
            }
        }
        #expect(offences == [], "move the code to a module the arrows allow, or change the arrows here and in docs/ARCHITECTURE.md")
    }

    @Test("a file of the engine names only types of its folder and of the folders its arrows reach")
    func engineFoldersFollowTheArrows() throws {
        let module = Self.packageRoot.appendingPathComponent("Sources/WebAuthSession")
        let files = try Self.swiftFiles(under: module).map { file in
            let path = Self.path(of: file, under: module)
            let folder = Self.filesInAnotherLayer[path] ?? (path.contains("/") ? String(path.prefix { $0 != "/" }) : ".")
            return (path: path, folder: folder, code: try Self.code(of: file))
        }
        #expect(files.count > 100, "the engine's files were found")
        #expect(Self.cycle(in: Self.folderArrows) == nil, "the folder table has no cycle")
        var declaredIn: [String: Set<String>] = [:]
        for file in files {
            for name in Self.matches(of: Self.topLevelDeclaration, in: file.code) { declaredIn[name, default: []].insert(file.folder) }
        }
        var offences: [String] = []
        for file in files {
            guard Self.folderArrows[file.folder] != nil else {
                offences.append("\(file.path): in a folder the table does not place (LayerTests.folderArrows)")
                continue
            }
            let allowed = Self.reach(from: file.folder, in: Self.folderArrows)
            for name in Set(Self.matches(of: Self.typeName, in: file.code)).sorted() {
                guard let folders = declaredIn[name], !folders.contains(file.folder) else { continue }
                for folder in folders.sorted() where !allowed.contains(folder) {
                    offences.append("\(file.path) names \(name), declared in \(folder)/: \(file.folder)/ may not depend on \(folder)/")
                }
            }
        }
        #expect(offences == [], "move the type down, or invert the call (a hook the upper layer registers)")
    }

    // MARK: The arrows

    /// Every node `node`'s arrows reach, directly or through others.
    static func reach(from node: String, in arrows: [String: [String]]) -> Set<String> {
        var reached: Set<String> = []
        var next = arrows[node] ?? []
        while let current = next.popLast() {
            guard reached.insert(current).inserted else { continue }
            next += arrows[current] ?? []
        }
        return reached
    }

    /// A node that reaches itself, if there is one.
    static func cycle(in arrows: [String: [String]]) -> String? {
        arrows.keys.sorted().first { reach(from: $0, in: arrows).contains($0) }
    }

    // MARK: Reading the sources

    /// A type declared at the top level of a file (nested types are indented, and named through their outer type).
    static let topLevelDeclaration = try! NSRegularExpression(
        pattern: #"^(?:@\w+(?:\([^)\n]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|final|open|nonisolated|indirect)\s+)*(?:struct|class|enum|actor|protocol|typealias)\s+([A-Z]\w*)"#,
        options: [.anchorsMatchLines])
    /// A name that may be a type's.
    static let typeName = try! NSRegularExpression(pattern: #"\b([A-Z]\w*)\b"#)
    /// An import, with its attributes and access (`@testable`, `internal`, `@_exported`) or of one symbol.
    static let importLine = try! NSRegularExpression(
        pattern: #"^\s*(?:@\w+\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)"#,
        options: [.anchorsMatchLines])

    static func matches(of expression: NSRegularExpression, in text: String) -> [String] {
        expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// A file's text without its comments (a `//` that follows a character other than a space,
    /// as in a URL, is not one).
    static func code(of file: URL) throws -> String {
        var text = try String(contentsOf: file, encoding: .utf8)
        text = text.replacingOccurrences(of: #"/\*[\s\S]*?\*/"#, with: "", options: .regularExpression)
        return text.replacingOccurrences(of: #"(?m)(^|\s)//.*$"#, with: "$1", options: .regularExpression)
    }

    static func swiftFiles(under folder: URL) throws -> [URL] {
        try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    static func path(of file: URL, under folder: URL) -> String {
        String(file.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))
    }

    /// The modules each Swift file under `folder` (relative to the package) imports, by the file's package path.
    static func imports(under folder: String) throws -> [(file: String, module: String)] {
        let url = packageRoot.appendingPathComponent(folder)
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try swiftFiles(under: url).flatMap { file in
            let path = Self.path(of: file, under: packageRoot)
            return matches(of: importLine, in: try code(of: file)).map { (file: path, module: $0) }
        }
    }
}
