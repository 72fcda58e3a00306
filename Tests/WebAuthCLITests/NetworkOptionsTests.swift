import Foundation
import TestSupport
import Testing
import WebAuthSession
import WebAuthCommandLine
@testable import webauth_engine

/// Every network option works the same three ways: the flag, the configuration file's key (the
/// `--config` file or the default one) and the Swift API's `WebAuthenticationOptions` value; and
/// `--help` and docs/company-networks.md name each.
@Suite("network options: flag, configuration key and Swift API agree")
struct NetworkOptionsTests {
    /// One network option, written the three ways.
    struct Option: Sendable, CustomTestStringConvertible {
        let name: String
        /// The command-line flags.
        let flags: [String]
        /// The configuration file (JSON).
        let config: String
        /// The library user's options.
        let library: @Sendable () async throws -> WebAuthenticationOptions

        var testDescription: String { name }
    }

    /// A PEM file of certificate authorities every Debian has.
    static let caFile = "/etc/ssl/certs/ca-certificates.crt"
    static let proxy = "http://proxy.example:3128"
    /// A PEM file with a self-signed certificate and its key, made by openssl for this run.
    static let certificateFile = FileManager.default.temporaryDirectory.appendingPathComponent("network-options-\(UUID().uuidString).pem").path

    /// Writes ``certificateFile`` (certificate and key in one file, as `--client-certificate` takes it).
    static func makeCertificateFile() async throws -> String {
        let openssl = try ChildProcess("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                                                   "-subj", "/CN=network-options", "-days", "1", "-keyout", certificateFile, "-out", certificateFile + ".crt"],
                                       environment: ProcessInfo.processInfo.environment)
        try #require(await openssl.exitStatus() == 0)
        let joined = try String(contentsOfFile: certificateFile + ".crt", encoding: .utf8) + String(contentsOfFile: certificateFile, encoding: .utf8)
        try joined.write(toFile: certificateFile, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: certificateFile + ".crt")
        return certificateFile
    }

    static let options: [Option] = [
        Option(name: "none given", flags: [], config: "{}", library: { WebAuthenticationOptions() }),
        Option(name: "proxy", flags: ["--proxy", proxy], config: #"{"proxy": "\#(proxy)"}"#) {
            var options = WebAuthenticationOptions()
            options.proxy = .custom(url: URL(string: proxy)!)
            return options
        },
        Option(name: "proxy none", flags: ["--proxy", "none"], config: #"{"proxy": "none"}"#) {
            var options = WebAuthenticationOptions()
            options.proxy = ProxySetting.none
            return options
        },
        Option(name: "no_proxy", flags: ["--proxy", proxy, "--no-proxy", "intranet.example, .corp.example,10.0.0.0/8"],
               config: #"{"proxy": "\#(proxy)", "no_proxy": "intranet.example, .corp.example,10.0.0.0/8"}"#) {
            var options = WebAuthenticationOptions()
            options.proxy = .custom(url: URL(string: proxy)!, ignoring: ["intranet.example", ".corp.example", "10.0.0.0/8"])
            return options
        },
        Option(name: "ca_file", flags: ["--ca-file", caFile], config: #"{"ca_file": "\#(caFile)"}"#) {
            var options = WebAuthenticationOptions()
            options.caFile = try TrustedCAFile(path: caFile)
            return options
        },
        Option(name: "language", flags: ["--language", "fr-CA,fr", "--language", "en"], config: #"{"language": ["fr-CA", "fr", "en"]}"#) {
            var options = WebAuthenticationOptions()
            options.languages = ["fr-CA", "fr", "en"]
            return options
        },
        Option(name: "client_certificate", flags: ["--client-certificate", certificateFile], config: #"{"client_certificate": "\#(certificateFile)"}"#) {
            var options = WebAuthenticationOptions()
            options.clientCertificate = try ClientCertificate(file: try await makeCertificateFile())
            return options
        },
    ]

    @Test("the flag, the --config key, the default configuration file and the Swift API give the same setting", arguments: options)
    func sameEverywhere(_ option: Option) async throws {
        let expected = try await option.library()
        // The environment names a proxy: an option given (or `.environment` when none is) must win all the same.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("network-options-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("webauth"), withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(at: folder)
            if expected.clientCertificate != nil { try? FileManager.default.removeItem(atPath: Self.certificateFile) }
        }
        let path = folder.appendingPathComponent("webauth/config.json").path
        try option.config.write(toFile: path, atomically: true, encoding: .utf8)
        let environment = ["https_proxy": "http://environment.example:8080", "XDG_CONFIG_HOME": folder.path]
        let ways: [(String, NetworkSettings)] = [
            ("flags", try NetworkOptions.parse(option.flags).settings(from: nil, environment: environment)),
            ("--config", try NetworkOptions.parse([]).settings(from: WebAuthCommandLine.ConfigurationFile(commandPath: path), environment: environment)),
            ("a command without flags, --config", try NetworkSettings.unflagged(config: path, environment: environment)),
            ("a command without flags, the default file", try NetworkSettings.unflagged(config: nil, environment: environment)),
        ]
        for (way, settings) in ways {
            let applied = settings.applied(to: WebAuthenticationOptions())
            #expect(applied.proxy == expected.proxy, "\(way)")
            #expect(applied.caFile?.path == expected.caFile?.path, "\(way)")
            #expect(applied.languages == expected.languages, "\(way)")
            #expect(applied.clientCertificate?.source == expected.clientCertificate?.source, "\(way)")
        }
    }

    /// `text` with every run of white space as one space (help text is wrapped).
    func flattened(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test("login --help names each network flag with its configuration key; token --help says where its route comes from")
    func help() async throws {
        let webauth = WebAuthBinary()
        let login = flattened(try await webauth(["login", "--help"]).stdout)
        for (flag, key) in [("--proxy", "proxy"), ("--no-proxy", "no_proxy"), ("--ca-file", "ca_file"), ("--language", "language"),
                            ("--client-certificate", "client_certificate"), ("--client-certificate-key", "client_certificate_key")] {
            #expect(login.contains(flag) && login.contains("\(key) in --config"), "\(flag) / \(key): \(login)")
        }
        let token = flattened(try await webauth(["token", "--help"]).stdout)
        for key in ["proxy", "no_proxy", "ca_file", "webauth/config.json"] {
            #expect(token.contains(key), "\(key): \(token)")
        }
    }

    @Test("docs/company-networks.md names each option and the commands that honour it")
    func guide() throws {
        let section = try Guides.text("docs/company-networks.md")
        for name in ["--proxy", "--no-proxy", "--ca-file", "--language", "--client-certificate", "`proxy`", "`no_proxy`", "`ca_file`",
                     "`language`", "`client_certificate`",
                     "`token`", "`exec`", "`env`", "`userinfo`", "`logout`", "`git-credential`", "`docker-credential-webauth`",
                     "`kubernetes-credential`", "config.json"] {
            #expect(section.contains(name), "docs/company-networks.md names \(name)")
        }
    }
}
