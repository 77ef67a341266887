import Foundation

/// A manufacturer's custom ISO 15693 command, as Core NFC's
/// `NFCISO15693CustomCommandConfiguration`. ISO/IEC 15693-3 §10.5.
@available(iOS 11.0, *)
open class NFCISO15693CustomCommandConfiguration: NFCTagCommandConfiguration {
    /// The IC manufacturer code the command is meant for (0x00…0xFF).
    open var manufacturerCode: Int
    /// The command code (0xA0…0xDF).
    open var customCommandCode: Int
    /// The parameters sent after the command code and manufacturer code (empty for none).
    open var requestParameters: Data

    /// A custom command with no retries.
    public convenience init(manufacturerCode: Int, customCommandCode: Int, requestParameters: Data?) {
        self.init(
            manufacturerCode: manufacturerCode, customCommandCode: customCommandCode,
            requestParameters: requestParameters, maximumRetries: 0, retryInterval: 0)
    }

    /// A custom command retried up to `maximumRetries` times, `retryInterval` seconds apart.
    public init(
        manufacturerCode: Int, customCommandCode: Int, requestParameters: Data?, maximumRetries: Int,
        retryInterval: TimeInterval
    ) {
        self.manufacturerCode = manufacturerCode
        self.customCommandCode = customCommandCode
        self.requestParameters = requestParameters ?? Data()
        super.init()
        self.maximumRetries = maximumRetries
        self.retryInterval = retryInterval
    }

    /// An empty configuration (codes 0, no parameters), as `init()` gives on iOS.
    public convenience override init() {
        self.init(manufacturerCode: 0, customCommandCode: 0, requestParameters: nil)
    }

    open override func copy(with zone: NSZone? = nil) -> Any {
        NFCISO15693CustomCommandConfiguration(
            manufacturerCode: manufacturerCode, customCommandCode: customCommandCode,
            requestParameters: requestParameters, maximumRetries: maximumRetries, retryInterval: retryInterval)
    }
}
