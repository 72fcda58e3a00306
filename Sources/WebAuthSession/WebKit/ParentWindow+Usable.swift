internal import CWebKitGTK

extension ParentWindow {
    /// Whether a GTK window of this process can be used (another program's is checked by
    /// ``makeTransient(_:)`` when the window is made): the page checks it before it makes anything.
    var isUsable: Bool {
        guard case .gtkWindow(let address) = kind else { return true }
        return cwk_is_window(address) != 0
    }
}
