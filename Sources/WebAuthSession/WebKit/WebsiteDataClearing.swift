internal import CWebKitGTK

/// `webkit_website_data_manager_clear` as an `async` call.
@WebKitActor
enum WebsiteDataClearing {
    static func clearAll(_ manager: UnsafeMutablePointer<WebKitWebsiteDataManager>, path: String) async throws(WebAuthSessionError) {
        let failure: String? = await withCheckedContinuation { continuation in
            let box = Unmanaged.passRetained(ContinuationBox(continuation)).toOpaque()
            webkit_website_data_manager_clear(manager, WEBKIT_WEBSITE_DATA_ALL, 0, nil, { source, result, data in
                let box = Unmanaged<ContinuationBox<String?>>.fromOpaque(data!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                let manager = source.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: WebKitWebsiteDataManager.self) }
                if webkit_website_data_manager_clear_finish(manager, result, &error) == 0 {
                    box.continuation.resume(returning: error.map { String(cString: $0.pointee.message) } ?? "unknown error")
                    if let error { g_error_free(error) }
                } else {
                    box.continuation.resume(returning: nil)
                }
            }, box)
        }
        if let failure { throw .profileUnavailable(path: path, message: failure) }
    }
}

/// A continuation carried through a C callback's `user_data` (retained there, taken back once).
final class ContinuationBox<T: Sendable>: Sendable {
    let continuation: CheckedContinuation<T, Never>
    init(_ continuation: CheckedContinuation<T, Never>) { self.continuation = continuation }
}
