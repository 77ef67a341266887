import Foundation

/// A read of a range of ISO 15693 blocks, sent as as many Read Multiple Blocks commands as the
/// chunk size needs, as Core NFC's `NFCISO15693ReadMultipleBlocksConfiguration`.
/// ISO/IEC 15693-3 §10.4.3.
@available(iOS 11.0, *)
open class NFCISO15693ReadMultipleBlocksConfiguration: NFCTagCommandConfiguration {
    /// The blocks to read: the first block (0…255) and how many (not 0).
    open var range: NSRange
    /// How many blocks each Read Multiple Blocks command asks for.
    open var chunkSize: Int

    /// A read with no retries.
    public convenience init(range: NSRange, chunkSize: Int) {
        self.init(range: range, chunkSize: chunkSize, maximumRetries: 0, retryInterval: 0)
    }

    /// A read whose commands are retried up to `maximumRetries` times, `retryInterval` seconds
    /// apart.
    public init(range: NSRange, chunkSize: Int, maximumRetries: Int, retryInterval: TimeInterval) {
        self.range = range
        self.chunkSize = chunkSize
        super.init()
        self.maximumRetries = maximumRetries
        self.retryInterval = retryInterval
    }

    /// An empty configuration (no blocks, chunk size 0), as `init()` gives on iOS.
    public convenience override init() {
        self.init(range: NSRange(location: 0, length: 0), chunkSize: 0)
    }

    open override func copy(with zone: NSZone? = nil) -> Any {
        NFCISO15693ReadMultipleBlocksConfiguration(
            range: range, chunkSize: chunkSize, maximumRetries: maximumRetries, retryInterval: retryInterval)
    }
}
