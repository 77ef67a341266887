import Foundation
import ISO7816

/// An ISO 14443-4 MIFARE tag of a session (DESFire, Plus, NTAG 424 DNA delivered as
/// `NFCMiFareTag`) as an `APDUTransmitter`, so clients such as `NTAG424Client` run over Core
/// NFC's `sendMiFareISO7816Command(_:)`.
///
/// `@unchecked Sendable`: as ``NFCISO7816TagTransmitter``, the tag is a thread-safe object whose
/// commands the session serialises.
@available(iOS 13.0, *)
public struct NFCMiFareTagTransmitter: APDUTransmitter, @unchecked Sendable {
    /// The tag the commands go to.
    public let tag: any NFCMiFareTag
    /// Whether extended-length APDUs reach the card (default no: DESFire-family chips take short APDUs).
    public let supportsExtendedLength: Bool

    /// Wraps `tag`.
    public init(tag: any NFCMiFareTag, supportsExtendedLength: Bool = false) {
        self.tag = tag
        self.supportsExtendedLength = supportsExtendedLength
    }

    /// Sends one command APDU as it is and returns its data followed by SW1 SW2.
    /// - Throws: `APDUError` when the bytes are not a command APDU; the session's
    ///   ``NFCReaderError`` when the exchange fails (`readerErrorUnsupportedFeature` on a tag
    ///   without ISO 14443-4).
    public func transmit(_ command: [UInt8]) async throws -> [UInt8] {
        guard let apdu = NFCISO7816APDU(data: Data(command)) else {
            throw APDUError(.invalidLength, "\(command.count) bytes are not a command APDU")
        }
        let (data, sw1, sw2) = try await tag.sendMiFareISO7816Command(apdu)
        return [UInt8](data) + [sw1, sw2]
    }
}

@available(iOS 13.0, *)
extension NFCMiFareTag {
    /// This tag as an `APDUTransmitter` over `sendMiFareISO7816Command(_:)` (an OpenCoreNFC
    /// addition; Core NFC has none).
    public var apduTransmitter: NFCMiFareTagTransmitter { NFCMiFareTagTransmitter(tag: self) }
}
