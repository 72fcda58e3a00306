import Testing
@testable import WebAuthSession

@Suite("Error messages")
struct ErrorMessageTests {
    @Test("a timeout that got what was left of a command's time says it to a tenth of a second")
    func timeoutRounded() {
        let error = WebAuthenticationError.timedOut(after: .nanoseconds(11_289_737_147), lastURL: nil)
        #expect(error.description == "no redirect within 11.3 seconds (last page: none)")
        #expect(WebAuthenticationError.timedOut(after: .seconds(5), lastURL: nil).description == "no redirect within 5.0 seconds (last page: none)")
    }
}
