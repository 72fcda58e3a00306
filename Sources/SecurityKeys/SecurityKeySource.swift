/// Where security keys come from: the USB keys libfido2 finds (HID), or a software key behind
/// libfido2's custom I/O (tests and demonstrations: the same library path a real key takes).
public enum SecurityKeySource: Sendable {
    /// The first FIDO2 key libfido2 finds among the machine's HID devices.
    case system
    /// A software key, reached through libfido2's custom I/O.
    case software(SoftwareSecurityKey)
}
