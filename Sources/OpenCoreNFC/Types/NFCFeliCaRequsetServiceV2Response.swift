import Foundation

/// The answer to a FeliCa Request Service v2 command, as Core NFC's
/// `NFCFeliCaRequsetServiceV2Response` (Apple's spelling, "Requset", kept so that code written
/// for iOS compiles).
@available(iOS 14.0, *)
public struct NFCFeliCaRequsetServiceV2Response: Sendable {
    /// Status Flag 1.
    public var statusFlag1: Int
    /// Status Flag 2.
    public var statusFlag2: Int
    /// Which encryption the node keys are for.
    public var encryptionIdentifier: NFCFeliCaEncryptionId
    /// The AES key version of each node (2 bytes each, little-endian), if any.
    public var nodeKeyVersionListAES: [Data]?
    /// The DES key version of each node (2 bytes each, little-endian), if any.
    public var nodeKeyVersionListDES: [Data]?

    /// Creates a value from its fields. Core NFC does not make this initializer public; it is
    /// here for tests and mock tags.
    public init(
        statusFlag1: Int, statusFlag2: Int, encryptionIdentifier: NFCFeliCaEncryptionId,
        nodeKeyVersionListAES: [Data]?, nodeKeyVersionListDES: [Data]?
    ) {
        self.statusFlag1 = statusFlag1
        self.statusFlag2 = statusFlag2
        self.encryptionIdentifier = encryptionIdentifier
        self.nodeKeyVersionListAES = nodeKeyVersionListAES
        self.nodeKeyVersionListDES = nodeKeyVersionListDES
    }
}
