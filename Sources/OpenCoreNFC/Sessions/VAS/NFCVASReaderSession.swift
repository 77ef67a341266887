import Dispatch
import Foundation
import NFCTransport

/// A session that reads Wallet passes from a phone, as a VAS terminal (Core NFC's
/// `NFCVASReaderSession`, iOS 13).
///
/// When a phone enters the field the session SELECTs the VAS application (`OSE.VAS.01`), checks
/// that it is Apple's (`ApplePay`, version 1.0), sends one GET VAS DATA per configuration in order
/// and hands the delegate one ``NFCVASResponse`` each (docs/vas-protocol.md). A device that is not
/// such a phone is ignored. The session reads a phone once while it stays in the field, and again
/// when it comes back.
@available(iOS 13.0, *)
open class NFCVASReaderSession: NFCReaderSession, @unchecked Sendable {
    /// The configurations, copied at creation.
    let configurations: [NFCVASCommandConfiguration]

    /// Creates a session asking for these passes. Delegate calls run on `queue`, or on a private serial queue when nil.
    public init(vasCommandConfigurations: [NFCVASCommandConfiguration], delegate: any NFCVASReaderSessionDelegate, queue: DispatchQueue?) {
        self.configurations = vasCommandConfigurations.map { $0.copy() as? NFCVASCommandConfiguration ?? $0 }
        super.init(delegate: delegate, queue: queue, technologies: .iso14443A, mode: .automaticRestart)
    }

    var vasDelegate: (any NFCVASReaderSessionDelegate)? { delegate as? any NFCVASReaderSessionDelegate }

    /// Refuses what Apple's header asks of the app and of the configurations: the usage
    /// description and the formats entitlement (``NFCAppConfiguration/checkCanBeginVASSession()``),
    /// at least one configuration, non-empty pass type identifiers, URLs of at most 64 characters.
    override func configurationRefusal() -> NFCReaderError? {
        guard let configuration = AppRules.configuration else { return AppRules.missing }
        if let violation = configuration.checkCanBeginVASSession() { return AppRules.error(violation) }
        guard !configurations.isEmpty else {
            return NFCReaderError(.readerErrorInvalidParameter, reason: "a VAS session needs at least one NFCVASCommandConfiguration")
        }
        for (index, item) in configurations.enumerated() {
            if item.passTypeIdentifier.isEmpty {
                return NFCReaderError(.readerErrorInvalidParameter, reason: "configuration \(index) has an empty passTypeIdentifier")
            }
            if let url = item.url, url.absoluteString.count > VASExchange.maximumURLLength {
                return NFCReaderError(
                    .readerErrorInvalidParameterLength,
                    reason:
                        "configuration \(index)'s URL has \(url.absoluteString.count) characters; the limit is \(VASExchange.maximumURLLength)"
                )
            }
        }
        return nil
    }

    override func notifyBecameActive() { vasDelegate?.readerSessionDidBecomeActive(self) }

    override func notifyInvalidated(_ error: NFCReaderError) { vasDelegate?.readerSession(self, didInvalidateWithError: error) }

    override func didDetect(_ targets: [TargetInfo], generation: Int) async {
        for target in targets where target.speaksISODEP {
            guard let connection = try? await connection(for: target, generation: generation),
                let responses = await VASExchange.read(configurations, over: connection)
            else { continue }
            sessionQueue.async {
                guard self.isReady else { return }
                self.vasDelegate?.readerSession(self, didReceive: responses)
            }
        }
    }
}
