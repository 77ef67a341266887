import NFCBytes
import NFCTransport

/// Native frames through an ACR122U's Direct Transmit (ACS *API-ACR122U* v2.04 §6.1:
/// `FF 00 00 00 Lc` and a PN532 command, answered with the PN532's answer and `90 00`), written
/// from NXP's *PN532 User Manual* UM0701-02 independently of `NFCPN532`, which drives a PN532
/// over a serial line.
///
/// Which PN532 command carries a frame:
/// - **Type 2 WRITE** (`A2`): InDataExchange
///   (`D4 40 01`, §7.3.8), which reports the tag's 4-bit ACK as success with no data and a NAK
///   as MIFARE error `14`. Through InCommunicateThru the ACR122U answers a successful WRITE with
///   status `02` (a 4-bit answer has no CRC_A), as nfc-pcsc's MIFARE Ultralight C example notes.
/// - **Other Type 2 commands** (READ, FAST_READ, GET_VERSION, READ_SIG, PWD_AUTH, …):
///   InCommunicateThru (`D4 42`, §7.3.9): InDataExchange would take `60`/`61` (GET_VERSION,
///   MIFARE authentication codes) for a MIFARE Classic authentication. A 4-bit NAK to one of them
///   is status `02` with no data, reported here as NAK `0` (which NAK is lost).
/// - **FeliCa**: InDataExchange with the frame's LEN byte (API-ACR122U §7.3's example).
///
/// Status byte (UM0701-02 §7.1, low six bits): `00` success, `01` time-out (the tag did not
/// answer), anything else a transmission error named by its code.
enum DirectTransmit {
    /// InDataExchange's and InCommunicateThru's command codes.
    static let inDataExchange: UInt8 = 0x40
    static let inCommunicateThru: UInt8 = 0x42
    /// The most a frame may hold: Lc is one byte (API-ACR122U §6.1), and the longest wrapping is
    /// a FeliCa frame's: `D4`, InDataExchange, Tg and its LEN byte (255 − 4).
    static let maxFrame = 251
    /// The most a PN532 answer carries in a normal frame after TFI, code and status (§6.2.1.1).
    static let maxAnswer = 252

    /// A PN532 command wrapped for Direct Transmit; `nil` when it does not fit one short APDU.
    static func wrap(_ pn532: [UInt8]) -> [UInt8]? {
        let payload = [0xD4] + pn532
        guard payload.count <= 255 else { return nil }
        return [0xFF, 0x00, 0x00, 0x00, UInt8(payload.count)] + payload
    }

    /// How a native frame for `technology` goes: the PN532 command (without `D4`), and how to read its answer.
    static func plan(_ frame: [UInt8], target: TargetInfo) throws(TransportError) -> (command: [UInt8], framing: Framing) {
        let technology = target.technology
        guard frame.count <= maxFrame else {
            throw TransportError(
                .frameTooLong, "a frame of \(frame.count) B does not fit the ACR122U's Direct Transmit (at most \(maxFrame))")
        }
        switch technology {
        case .felica:
            return ([inDataExchange, 0x01, UInt8(frame.count + 1)] + frame, .felica)
        case .iso14443A:
            if case .iso14443A(let a) = target.parameters, a.isType1Platform {
                // The PN532 reaches Jewel and Topaz through InDataExchange only, completing the
                // frame with the UID itself (UM0701-02 §7.3.8): not built for this profile.
                throw TransportError(.unsupportedCommand, "Type 1 (Topaz) tags through the ACR122U profile are not supported")
            }
            if frame.first == 0xA0 {
                throw TransportError(
                    .unsupportedCommand,
                    "COMPATIBILITY_WRITE through the ACR122U: its second phase would go as InCommunicateThru, its ACK read as an error")
            }
            if frame.first == 0xA2 { return ([inDataExchange, 0x01] + frame, .acknowledged) }
            return ([inCommunicateThru] + frame, .data)
        default:
            throw TransportError(
                .unsupportedCommand, "the ACR122U has no \(technology) (API-ACR122U §1.1 lists ISO/IEC 14443 A and B, MIFARE and FeliCa)")
        }
    }

    /// How a command's answer is read.
    enum Framing: Equatable {
        /// Data the tag sent; a 4-bit NAK is status `02` with no data.
        case data
        /// A 4-bit ACK (success, no data) or NAK (MIFARE error `14`).
        case acknowledged
        /// A FeliCa answer with its LEN byte.
        case felica
    }

    /// The tag's answer from the reader's, as `TagConnection.transceive` returns it (a 4-bit ACK
    /// or NAK as one byte).
    static func answer(_ response: [UInt8], to command: [UInt8], framing: Framing, reader: String) throws(TransportError) -> [UInt8] {
        let (data, sw) = try PseudoAPDU.split(response, doing: "Direct Transmit on \(reader)")
        guard sw == 0x9000 else {
            // API-ACR122U §6.1: 63 00, the operation failed (the PN532 did not answer).
            throw TransportError(.transmission, "\(reader) refused Direct Transmit (SW \(Hex.encode(Array(response.suffix(2)))))")
        }
        guard data.count >= 3, data[0] == 0xD5, data[1] == command[0] &+ 1 else {
            throw TransportError(
                .protocolViolation,
                "\(reader): Direct Transmit answered \(Hex.encode(data)), not D5 \(Hex.encode([command[0] &+ 1])) and a status")
        }
        let status = data[2] & 0x3F
        let payload = Array(data.dropFirst(3))
        switch (status, framing) {
        case (0x00, .data):
            return payload
        case (0x00, .acknowledged):
            return payload.isEmpty ? [0x0A] : payload
        case (0x00, .felica):
            guard let length = payload.first, Int(length) == payload.count, payload.count >= 2 else {
                throw TransportError(
                    .protocolViolation, "\(reader): a FeliCa answer whose LEN byte does not match (\(payload.count) bytes)")
            }
            return Array(payload.dropFirst())
        case (0x02, .data) where payload.isEmpty, (0x14, .acknowledged):
            return [0x00]  // a NAK; the reader does not say which
        case (0x01, _):
            throw TransportError(.timeout, "the tag on \(reader) did not answer (PN532 status 01)")
        default:
            throw TransportError(.transmission, "\(reader): the PN532 reports error \(Hex.encode([status])) (UM0701-02 §7.1)")
        }
    }
}
