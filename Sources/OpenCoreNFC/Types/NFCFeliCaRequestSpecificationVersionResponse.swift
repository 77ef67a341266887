import Foundation

/// The answer to a FeliCa Request Specification Version command, as Core NFC's
/// `NFCFeliCaRequestSpecificationVersionResponse`.
@available(iOS 14.0, *)
public struct NFCFeliCaRequestSpecificationVersionResponse: Sendable {
    /// Status Flag 1.
    public var statusFlag1: Int
    /// Status Flag 2.
    public var statusFlag2: Int
    /// The basic version (2 bytes, little-endian BCD), if the card reported one.
    public var basicVersion: Data?
    /// The option version (2 bytes, little-endian BCD), if the card reported one.
    public var optionVersion: Data?

    /// Creates a value from its fields. Core NFC does not make this initializer public; it is
    /// here for tests and mock tags.
    public init(statusFlag1: Int, statusFlag2: Int, basicVersion: Data?, optionVersion: Data?) {
        self.statusFlag1 = statusFlag1
        self.statusFlag2 = statusFlag2
        self.basicVersion = basicVersion
        self.optionVersion = optionVersion
    }
}
