import Foundation
import TestSupport
import Testing

/// The verification URI and user code a `webauth` device sign-in printed on stderr.
struct DeviceInstructions {
    let verificationURI: URL
    let userCode: String

    init?(_ stderr: String) {
        guard let match = stderr.firstMatch(of: /open (\S+) on your phone[^\n]*\n\n    ([A-Z]{4}-[A-Z]{4})\n/),
              let url = URL(string: String(match.1)) else { return nil }
        verificationURI = url
        userCode = String(match.2)
    }
}

extension WebAuthBinary {
    /// Runs `webauth arguments`; once it prints a code, a phone approves it over the development
    /// provider's verification page. Returns the status, stdout and stderr.
    func signInOnPhone(_ arguments: [String]) async throws -> Run {
        let stdout = home.appendingPathComponent("stdout-\(UUID().uuidString)")
        let started = try start(arguments, stdout: stdout)
        var stderr = ""
        var approved = false
        for await chunk in started.stderr {
            stderr += chunk
            if !approved, let instructions = DeviceInstructions(stderr) {
                approved = true
                let page = try await DevicePhone().approve(instructions.userCode, at: instructions.verificationURI)
                #expect(page.contains("You can go back to your device"))
            }
        }
        return Run(status: await started.status.value, stdout: try String(contentsOf: stdout, encoding: .utf8), stderr: stderr)
    }
}
