internal import CWebKitGTK

/// `webkit_website_data_manager_clear` (every kind of data, whatever its age) as an `async` call.
@WebKitActor
enum WebsiteDataClearing {
    /// Clears a profile's data at `path`.
    /// - Throws: ``WebAuthenticationError/profileUnavailable(path:message:)`` when WebKit could not.
    static func clearAll(_ manager: UnsafeMutablePointer<WebKitWebsiteDataManager>, path: String) async throws(WebAuthenticationError) {
        if let failure = await clear(manager) { throw .profileUnavailable(path: path, message: failure) }
    }

    /// Clears all of `manager`'s data once WebKit has; returns why it could not, or nil.
    static func clear(_ manager: UnsafeMutablePointer<WebKitWebsiteDataManager>) async -> String? {
        await withCheckedContinuation { continuation in
            webkit_website_data_manager_clear(manager, WEBKIT_WEBSITE_DATA_ALL, 0, nil, { source, result, data in
                guard let continuation = RetainedValue<CheckedContinuation<String?, Never>>.take(data) else { return }
                let manager = source.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: WebKitWebsiteDataManager.self) }
                do throws(GLibError) {
                    let cleared = try GLibError.attempt { webkit_website_data_manager_clear_finish(manager, result, $0) }
                    continuation.resume(returning: cleared != 0 ? nil : "unknown error")
                } catch {
                    continuation.resume(returning: error.message)
                }
            }, RetainedValue.retained(continuation))
        }
    }
}
