import Foundation

/// The answer to a FeliCa Polling command, as Core NFC's `NFCFeliCaPollingResponse`.
/// JIS X 6319-4 §8.6.2.2.
@available(iOS 14.0, *)
public struct NFCFeliCaPollingResponse: Sendable {
    /// PMm, the 8-byte manufacture parameter.
    public var manufactureParameter: Data
    /// The data the request code asked for (system code or communication performance), if any.
    public var requestData: Data?

    /// Creates a value from its fields. Core NFC does not make this initializer public; it is
    /// here for tests and mock tags.
    public init(manufactureParameter: Data, requestData: Data?) {
        self.manufactureParameter = manufactureParameter
        self.requestData = requestData
    }
}
