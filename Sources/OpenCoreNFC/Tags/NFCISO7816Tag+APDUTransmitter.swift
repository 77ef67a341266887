import Foundation
import ISO7816

/// An ISO 7816 tag of a session as an `APDUTransmitter`, so the applet clients (OATH, FIDO,
/// PIV) and `APDUTransmitter.send(_:options:)` (GET RESPONSE, `6Cxx` retry, chaining) run
/// over Core NFC's `sendCommand(apdu:)`.
///
/// `@unchecked Sendable`: Core NFC's tag protocols predate `Sendable`, but every tag a session
/// hands out is a thread-safe object whose commands the session serialises.
@available(iOS 13.0, *)
public struct NFCISO7816TagTransmitter: APDUTransmitter, @unchecked Sendable {
    /// The tag the commands go to.
    public let tag: any NFCISO7816Tag
    /// Whether extended-length APDUs reach the card; Core NFC sends them on cards whose ATS
    /// allows it, so this is the caller's knowledge of the card (default yes).
    public let supportsExtendedLength: Bool

    /// Wraps `tag`; pass `supportsExtendedLength: false` for a card known to refuse extended-length APDUs.
    public init(tag: any NFCISO7816Tag, supportsExtendedLength: Bool = true) {
        self.tag = tag
        self.supportsExtendedLength = supportsExtendedLength
    }

    /// Sends one command APDU as it is and returns its data followed by SW1 SW2.
    /// - Throws: `APDUError` when the bytes are not a command APDU; the session's
    ///   ``NFCReaderError`` when the exchange fails.
    public func transmit(_ command: [UInt8]) async throws -> [UInt8] {
        guard let apdu = NFCISO7816APDU(data: Data(command)) else {
            throw APDUError(.invalidLength, "\(command.count) bytes are not a command APDU")
        }
        let (data, sw1, sw2) = try await tag.sendCommand(apdu: apdu)
        return [UInt8](data) + [sw1, sw2]
    }
}

@available(iOS 13.0, *)
extension NFCISO7816Tag {
    /// This tag as an `APDUTransmitter` (an OpenCoreNFC addition; Core NFC has none).
    public var apduTransmitter: NFCISO7816TagTransmitter { NFCISO7816TagTransmitter(tag: self) }
}
