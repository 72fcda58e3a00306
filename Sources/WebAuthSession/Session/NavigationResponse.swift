import Foundation

/// A navigation's response as WebKit's `decide-policy` reports it, before WebKit shows it or
/// saves it as a download.
struct NavigationResponse: Sendable, Hashable {
    let url: String
    /// Whether WebKit can show the response's MIME type (a page, an image, text).
    let canShowMIMEType: Bool
    /// The `Content-Disposition` header, if the response has one.
    let contentDisposition: String?

    /// Whether WebKit would save the response instead of showing it: a MIME type it cannot show,
    /// or `Content-Disposition: attachment` whatever the MIME type (the disposition type ends at
    /// the first `;` and is case-insensitive, RFC 6266 §4.2, as WebKit reads it).
    var wouldDownload: Bool {
        guard canShowMIMEType else { return true }
        guard let contentDisposition else { return false }
        let type = contentDisposition.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
        return type.lowercased() == "attachment"
    }
}
