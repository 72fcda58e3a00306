package import CGDBus

/// A C pointer to a GObject instance, typed (`WebKitWebView *`) or opaque (`SoupServer *`).
package protocol GObjectPointer {
    /// The instance as GObject's functions take it.
    var objectAddress: UnsafeMutableRawPointer { get }
}

extension UnsafeMutablePointer: GObjectPointer {
    package var objectAddress: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}

extension OpaquePointer: GObjectPointer {
    package var objectAddress: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}

/// One reference to a GObject, taken or adopted once and released when this is: the way Swift
/// code owns a GObject. The object lives at least as long as this, so ``pointer`` never dangles.
package final class GObjectReference<Pointer: GObjectPointer> {
    /// The object.
    package let pointer: Pointer

    /// Takes over a reference the caller owns: a non-floating object just made, or a
    /// `transfer full` return value.
    package init(adopting pointer: Pointer) {
        self.pointer = pointer
    }

    /// Takes a reference of its own on an object someone else owns (a window's child, a toplevel).
    package init(retaining pointer: Pointer) {
        self.pointer = pointer
        g_object_ref(pointer.objectAddress)
    }

    /// Owns a new object whose reference is floating (a widget not yet in a container).
    package init(sinking pointer: Pointer) {
        self.pointer = pointer
        g_object_ref_sink(pointer.objectAddress)
    }

    deinit {
        g_object_unref(pointer.objectAddress)
    }

    /// Calls `body` with the object, which this reference keeps alive until `body` returns (a
    /// local reference may otherwise be released right after its last use, before the C call).
    package func withPointer<Result>(_ body: (Pointer) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(self) { try body(pointer) }
    }
}
