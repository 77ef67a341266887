import Foundation

/// The answer to an ISO 15693 Get System Information command, as Core NFC's
/// `NFCISO15693SystemInfo`.
///
/// A field the tag left out of its answer (its info flag clear) is -1. ISO/IEC 15693-3 §10.4.12.
@available(iOS 14.0, *)
public struct NFCISO15693SystemInfo: Sendable {
    /// The tag's 8-byte UID, most significant byte first.
    public var uniqueIdentifier: Data
    /// The DSFID, or -1.
    public var dataStorageFormatIdentifier: Int
    /// The AFI, or -1.
    public var applicationFamilyIdentifier: Int
    /// The size of one block in bytes, or -1.
    public var blockSize: Int
    /// The number of blocks, or -1.
    public var totalBlocks: Int
    /// The IC reference byte, or -1.
    public var icReference: Int

    /// Creates a value from its fields. Core NFC does not make this initializer public; it is
    /// here for tests and mock tags.
    public init(
        uniqueIdentifier: Data, dataStorageFormatIdentifier: Int, applicationFamilyIdentifier: Int,
        blockSize: Int, totalBlocks: Int, icReference: Int
    ) {
        self.uniqueIdentifier = uniqueIdentifier
        self.dataStorageFormatIdentifier = dataStorageFormatIdentifier
        self.applicationFamilyIdentifier = applicationFamilyIdentifier
        self.blockSize = blockSize
        self.totalBlocks = totalBlocks
        self.icReference = icReference
    }
}
