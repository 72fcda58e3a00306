import Testing
@testable import WebAuthSession

@Suite("Page summaries")
struct PageSummaryTests {
    @Test("a page that echoes its own address in its message shows neither the state nor the code in the summary")
    func messageRedacted() {
        let state = "I_DxpH04YDXJ5t7S6_068gfc4hUgusY1VymXtGFEpTk"
        let url = "https://login.example.com/authorize?client_id=app&state=\(state)"
        let summary = PageSummary(url: url, title: "Sign in", message: "Request \(url) failed; code 4f1c2a9e8b7d6c5e4f3a2b1c")
        #expect(!summary.description.contains(state))
        #expect(!summary.description.contains("4f1c2a9e8b7d6c5e4f3a2b1c"))
        #expect(summary.message == "Request https:<29>?client_id=app&<49> failed; code <24>", "long token-like runs become their length")
    }
}
