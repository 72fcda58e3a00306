/// Where a login at the development provider stands after a request.
enum LoginProgress {
    /// Show a page.
    case page(String, status: Int)
    /// The person is known (and, for a consent decision, was already known).
    case authenticated(subject: String)
    /// A form this provider never sent.
    case invalid
}
