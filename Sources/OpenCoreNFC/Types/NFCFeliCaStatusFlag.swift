/// The two status flags a FeliCa card answers a command with, as Core NFC's
/// `NFCFeliCaStatusFlag`. Both 0 means success. JIS X 6319-4 §8.6.1, FeliCa Card User's Manual.
@available(iOS 14.0, *)
public struct NFCFeliCaStatusFlag: Sendable {
    /// Status Flag 1: 0x00 for success, otherwise where the error lies.
    public var statusFlag1: Int
    /// Status Flag 2: the kind of error.
    public var statusFlag2: Int

    /// Creates a value from its fields. Core NFC does not make this initializer public; it is
    /// here for tests and mock tags.
    public init(statusFlag1: Int, statusFlag2: Int) {
        self.statusFlag1 = statusFlag1
        self.statusFlag2 = statusFlag2
    }
}
