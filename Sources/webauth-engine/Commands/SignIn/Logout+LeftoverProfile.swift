import Foundation
import WebAuthSession
import WebAuthCommandLine

extension Logout {
    /// What `logout --local --profile NAME` does for a profile with no saved sign-in (a sign-in
    /// that failed after the provider set its cookies): it removes the profile's cookie folder.
    /// - Returns: whether there was one to remove.
    static func removeLeftoverWebsiteData(_ profile: ProfileOptions) throws(CommandFailure) -> Bool {
        guard case .persistent(let directory) = profile.websiteData(), FileManager.default.fileExists(atPath: directory.path) else { return false }
        do { try FileManager.default.removeItem(at: directory) } catch {
            throw CommandFailure(.localFailure, "could not delete the profile's cookies in \(directory.path): \(error.localizedDescription)")
        }
        return true
    }
}
