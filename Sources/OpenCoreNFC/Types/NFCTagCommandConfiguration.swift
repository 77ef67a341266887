import Foundation

/// How often, and how far apart, a tag command is retried when the tag does not answer, as Core
/// NFC's `NFCTagCommandConfiguration`.
@available(iOS 11.0, *)
open class NFCTagCommandConfiguration: NSObject, NSCopying {
    /// How many times a command is resent after the tag failed to answer: 0…256, default 0.
    open var maximumRetries: Int = 0
    /// The wait before each retry, in seconds; default 0.
    open var retryInterval: TimeInterval = 0

    /// A configuration with no retries.
    public override init() {
        super.init()
    }

    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NFCTagCommandConfiguration()
        copy.maximumRetries = maximumRetries
        copy.retryInterval = retryInterval
        return copy
    }

    /// Whether ``maximumRetries`` and ``retryInterval`` are in range (0…256 retries, a finite
    /// interval of at least 0 s); a command given a configuration that is not fails with
    /// ``NFCReaderError/Code/tagCommandConfigurationErrorInvalidParameters``.
    var hasValidRetryParameters: Bool {
        (0...256).contains(maximumRetries) && retryInterval.isFinite && retryInterval >= 0
    }
}
