internal import CWebKitGTK

/// A WebKitGTK version: the library this process runs with, and the oldest one this package supports.
public struct WebKitVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The major version (2).
    public let major: Int
    /// The minor version (even numbers are stable releases).
    public let minor: Int
    /// The micro version.
    public let micro: Int

    /// A version.
    public init(major: Int, minor: Int, micro: Int) {
        (self.major, self.minor, self.micro) = (major, minor, micro)
    }

    /// The WebKitGTK this process has loaded (`webkit_get_major_version()` and friends), which
    /// may be newer than the one it was built against.
    public static var runtime: WebKitVersion {
        WebKitVersion(major: Int(webkit_get_major_version()), minor: Int(webkit_get_minor_version()),
                      micro: Int(webkit_get_micro_version()))
    }

    /// The oldest WebKitGTK this package works with: 2.40, whose
    /// `webkit_web_view_evaluate_javascript` and `call_async_javascript_function` (with a world
    /// name) the login scripts need.
    public static let minimum = WebKitVersion(major: 2, minor: 40, micro: 0)

    public static func < (lhs: WebKitVersion, rhs: WebKitVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.micro) < (rhs.major, rhs.minor, rhs.micro)
    }

    public var description: String { "\(major).\(minor).\(micro)" }
}
