/// The casts of Core NFC's Objective-C `NFCTag` protocol (`NFCTag.h`, iOS 13: `asNFCISO15693Tag`,
/// `asNFCISO7816Tag`, `asNFCFeliCaTag`, `asNFCMiFareTag`): the tag as that kind, or nil when it is
/// another kind.
@available(iOS 13.0, *)
extension __NFCTag {
    /// The tag as an ISO 15693 tag, or nil.
    public func asNFCISO15693Tag() -> (any NFCISO15693Tag)? { self as? any NFCISO15693Tag }
    /// The tag as an ISO 7816 tag, or nil.
    public func asNFCISO7816Tag() -> (any NFCISO7816Tag)? { self as? any NFCISO7816Tag }
    /// The tag as a FeliCa tag, or nil.
    public func asNFCFeliCaTag() -> (any NFCFeliCaTag)? { self as? any NFCFeliCaTag }
    /// The tag as a MIFARE tag, or nil.
    public func asNFCMiFareTag() -> (any NFCMiFareTag)? { self as? any NFCMiFareTag }
}
