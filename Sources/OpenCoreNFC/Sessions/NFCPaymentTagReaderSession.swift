import Foundation

/// A tag session for payment cards (Core NFC, iOS 26: `NFCPaymentTagReaderSession`, a subclass
/// of `NFCTagReaderSession`).
///
/// What differs from its parent, from Apple's class and `init(delegate:queue:)` references:
/// - it polls ISO 14443 and delivers only ISO 7816 cards (`NFCTag.iso7816`): no MIFARE fallback,
///   no other technology;
/// - it SELECTs, and lets the app SELECT, the payment AIDs its Info.plist lists in
///   `com.apple.developer.nfc.readersession.iso7816.select-identifiers` (other sessions never
///   may), besides the other AIDs there;
/// - it is offered only in an eligible region (Apple: an account registered in, and a device
///   located in, the European Union): elsewhere ``readingAvailable`` is false and `begin()` ends
///   the session with `readerErrorIneligible` (decision: Apple documents the property, not the
///   error; `readerErrorIneligible` is the code Core NFC has for it).
///   ``NFCSessionEnvironment/isInEligibleRegion`` says which.
///
/// Everything else — the usage description and `TAG` format rules, the delegate calls, connect,
/// `restartPolling` — is its parent's.
@available(iOS 26.0, *)
open class NFCPaymentTagReaderSession: NFCTagReaderSession, @unchecked Sendable {
    /// Creates a session for payment cards; it starts with ``NFCReaderSession/begin()``.
    public init(delegate: any NFCTagReaderSessionDelegate, queue: DispatchQueue? = nil) {
        super.init(configuration: Configuration(pollingOption: .iso14443), delegate: delegate, queue: queue)
    }

    /// Whether payment cards can be read: a reader, in an eligible region.
    open override class var readingAvailable: Bool {
        NFCSessionEnvironment.shared.isInEligibleRegion && super.readingAvailable
    }

    override var selectsPaymentAIDs: Bool { true }

    override var deliversOnlyISO7816: Bool { true }

    override func configurationRefusal() -> NFCReaderError? {
        guard NFCSessionEnvironment.shared.isInEligibleRegion else {
            return NFCReaderError(
                .readerErrorIneligible,
                reason: "payment tag reading is offered only to accounts and devices in the European Union (NFCPaymentTagReaderSession)")
        }
        return super.configurationRefusal()
    }
}
