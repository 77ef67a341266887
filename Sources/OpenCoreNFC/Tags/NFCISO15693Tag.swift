import Foundation
import NFCTransport

/// An ISO 15693 tag, as Core NFC's `NFCISO15693Tag`.
@available(iOS 11.0, *)
@preconcurrency
public protocol NFCISO15693Tag: NFCNDEFTag, __NFCTag {
    /// The UID, most significant byte (`E0`) first.
    var identifier: Data { get }
    /// The IC manufacturer code (ISO/IEC 7816-6), UID byte 7.
    var icManufacturerCode: Int { get }
    /// The IC serial number, UID bytes 6…1.
    var icSerialNumber: Data { get }
}

/// The ISO 15693 tags sessions hand out.
@available(iOS 13.0, *)
final class ISO15693TagObject: NFCTagObject, NFCISO15693Tag, __NFCTag, @unchecked Sendable {
    var type: NFCTagType { .ISO15693 }
    var identifier: Data { Data(target.identifier) }
    var icManufacturerCode: Int { target.identifier.count == 8 ? Int(target.identifier[1]) : 0 }
    var icSerialNumber: Data { target.identifier.count == 8 ? Data(target.identifier[2...]) : Data() }
}
