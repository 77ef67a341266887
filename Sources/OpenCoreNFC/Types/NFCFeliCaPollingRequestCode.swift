/// The Request Code of a FeliCa Polling command: what the card adds to its answer, as Core NFC's
/// `NFCFeliCaPollingRequestCode`. JIS X 6319-4 §8.6.2.1.
///
/// Not `@frozen`: switch over it with `@unknown default`, as on iOS.
@available(iOS 13.0, *)
public enum NFCFeliCaPollingRequestCode: Int, Sendable {
    /// Nothing beyond IDm and PMm.
    case noRequest = 0
    /// The system code of the card.
    case systemCode = 1
    /// The communication performance (supported bit rates).
    case communicationPerformance = 2
}

// MARK: - The iOS 13 spellings

@available(iOS 13.0, *)
extension NFCFeliCaPollingRequestCode {
    /// The iOS 13 spelling of ``noRequest``; deprecated.
    @available(*, deprecated, renamed: "NFCFeliCaPollingRequestCode.noRequest")
    public static var PollingRequestCodeNoRequest: NFCFeliCaPollingRequestCode { .noRequest }
    /// The iOS 13 spelling of ``systemCode``; deprecated.
    @available(*, deprecated, renamed: "NFCFeliCaPollingRequestCode.systemCode")
    public static var PollingRequestCodeSystemCode: NFCFeliCaPollingRequestCode { .systemCode }
    /// The iOS 13 spelling of ``communicationPerformance``; deprecated.
    @available(*, deprecated, renamed: "NFCFeliCaPollingRequestCode.communicationPerformance")
    public static var PollingRequestCodeCommunicationPerformance: NFCFeliCaPollingRequestCode { .communicationPerformance }
}

/// The iOS 13 name of ``NFCFeliCaPollingRequestCode``.
@available(*, deprecated, renamed: "NFCFeliCaPollingRequestCode")
public typealias PollingRequestCode = NFCFeliCaPollingRequestCode
