import OpenIDConnect
import Testing
@testable import WebAuthSession

/// The `var:` value source as the engine resolves it when it types a value (the batch file's
/// format is SignInFilesTests' LoginBatchTests).
@Suite("Login batch var values, resolved")
struct VariableResolutionTests {
    @Test("outside a batch a var value is a typed error naming the variable; in one, the entry's source stands in")
    func variableResolution() async throws {
        let value = LoginValue.variable("password")
        #expect(throws: LoginValueError.undefinedVariable(name: "password", defined: nil)) { try value.substituting(nil) }
        await #expect(throws: LoginValueError.undefinedVariable(name: "password", defined: nil)) {
            try await value.resolve(environment: [:], http: URLSessionHTTPClient())
        }
        #expect(LoginValueError.undefinedVariable(name: "password", defined: nil).description.contains("{var: password}"))
        let missing = LoginValueError.undefinedVariable(name: "password", defined: ["username"])
        #expect(throws: missing) { try value.substituting(["username": .literal("alice")]) }
        #expect(missing.description.contains("no value named password (it has username)"))
        #expect(try value.substituting(["password": .environment("ALICE_PASSWORD")]) == .environment("ALICE_PASSWORD"))
        #expect(try LoginValue.environment("A").substituting(nil) == .environment("A"), "other sources are themselves")
    }
}
