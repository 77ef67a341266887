/// The answer to an ISO 15693 (Extended) Get Multiple Block Security Status command, as Core
/// NFC's `NFCISO15693MultipleBlockSecurityStatus`.
///
/// One status byte per block, in block order; bit 1 set means the block is locked.
/// ISO/IEC 15693-3 §10.4.13.
@available(iOS 14.0, *)
public struct NFCISO15693MultipleBlockSecurityStatus: Sendable {
    /// The security status byte of each block.
    public var blockSecurityStatus: [Int]

    /// Creates a value from its field. Core NFC does not make this initializer public; it is
    /// here for tests and mock tags.
    public init(blockSecurityStatus: [Int]) {
        self.blockSecurityStatus = blockSecurityStatus
    }
}
