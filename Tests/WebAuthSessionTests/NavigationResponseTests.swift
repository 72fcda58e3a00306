import Testing
@testable import WebAuthSession

/// Which responses WebKit would save as a download, read the way WebKit reads them.
@Suite("Responses that would download")
struct NavigationResponseTests {
    @Test("an attachment, or a type WebKit cannot show, would download; anything else is shown", arguments: [
        (true, nil, false),
        (true, "inline", false),
        (true, #"inline; filename="a.html""#, false),
        (true, "attachments", false),
        (true, "attachment", true),
        (true, #"Attachment; filename="a.html""#, true),
        (true, " ATTACHMENT ;filename=a", true),
        (false, nil, true),
        (false, "inline", true),
    ] as [(Bool, String?, Bool)])
    func wouldDownload(canShow: Bool, disposition: String?, downloads: Bool) {
        let response = NavigationResponse(url: "https://login.example.com/report", canShowMIMEType: canShow, contentDisposition: disposition)
        #expect(response.wouldDownload == downloads)
    }
}
