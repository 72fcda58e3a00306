/// A signal handler's user data: its target, held weakly, so a handler that runs during the
/// target's teardown finds `nil`, never a freed object.
package struct WeakTarget<Object: AnyObject> {
    package weak var object: Object?

    package init(_ object: Object) {
        self.object = object
    }

    /// The target behind a handler's `user_data` (callable from the C handler itself).
    package static func from(_ data: UnsafeMutableRawPointer?) -> Object? {
        RetainedValue<WeakTarget>.borrow(data)?.object
    }
}
