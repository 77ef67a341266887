import Foundation

/// A tag found by an `NFCTagReaderSession`, by kind (Core NFC's `NFCTag`).
@available(iOS 13.0, *)
public enum NFCTag: @unchecked Sendable {
    /// A FeliCa tag that answered Polling for one of the app's system codes.
    case feliCa(any NFCFeliCaTag)
    /// An ISO 7816 tag: an ISO 14443-4 card that answered SELECT for one of the app's AIDs.
    case iso7816(any NFCISO7816Tag)
    /// An ISO 15693 tag.
    case iso15693(any NFCISO15693Tag)
    /// A MIFARE tag. Unlike on iOS, only Type A tags without ISO 14443-4 (Ultralight, NTAG) arrive here; ISO-DEP cards,
    /// DESFire and Plus included, arrive as ``iso7816(_:)`` when one of the app's AIDs answers.
    case miFare(any NFCMiFareTag)

    /// Whether the tag is still usable in its session.
    public var isAvailable: Bool {
        switch self {
        case .feliCa(let tag): tag.isAvailable
        case .iso7816(let tag): tag.isAvailable
        case .iso15693(let tag): tag.isAvailable
        case .miFare(let tag): tag.isAvailable
        }
    }

    /// The kind of tag.
    public var type: NFCTagType {
        switch self {
        case .feliCa: .feliCa
        case .iso7816: .iso7816Compatible
        case .iso15693: .ISO15693
        case .miFare: .miFare
        }
    }

    /// The object behind the tag.
    var object: NFCTagObject? {
        switch self {
        case .feliCa(let tag): tag as? NFCTagObject
        case .iso7816(let tag): tag as? NFCTagObject
        case .iso15693(let tag): tag as? NFCTagObject
        case .miFare(let tag): tag as? NFCTagObject
        }
    }
}
