import Foundation
import NFCTransport

/// A MIFARE tag (Ultralight, NTAG, Plus, DESFire), as Core NFC's `NFCMiFareTag`.
@available(iOS 13.0, *)
@preconcurrency
public protocol NFCMiFareTag: NFCNDEFTag, __NFCTag {
    /// The MIFARE family, from SAK and GET_VERSION.
    var mifareFamily: NFCMiFareFamily { get }
    /// The UID.
    var identifier: Data { get }
    /// The ATS historical bytes of an ISO 14443-4 MIFARE (Plus, DESFire); nil otherwise.
    var historicalBytes: Data? { get }

    /// Sends a native command (CRC added by the reader) and returns the answer; a 4-bit ACK or
    /// NAK comes back as one byte.
    func sendMiFareCommand(commandPacket command: Data, completionHandler: @escaping (Data, (any Error)?) -> Void)
    /// Sends a native command (CRC added by the reader) and returns the answer; a 4-bit ACK or NAK comes back as one byte.
    func sendMiFareCommand(commandPacket command: Data) async throws -> Data

    /// Sends an ISO 7816 APDU to an ISO 14443-4 MIFARE (DESFire, Plus).
    func sendMiFareISO7816Command(_ apdu: NFCISO7816APDU, completionHandler: @escaping (Data, UInt8, UInt8, (any Error)?) -> Void)
    /// Sends an ISO 7816 APDU to an ISO 14443-4 MIFARE and returns the response data, SW1 and SW2; fails with
    /// `readerErrorUnsupportedFeature` on a tag without ISO 14443-4.
    func sendMiFareISO7816Command(_ apdu: NFCISO7816APDU) async throws -> (Data, UInt8, UInt8)
}

/// The MIFARE tags sessions hand out.
@available(iOS 13.0, *)
final class MiFareTagObject: NFCTagObject, NFCMiFareTag, __NFCTag, @unchecked Sendable {
    var type: NFCTagType { .miFare }

    var mifareFamily: NFCMiFareFamily {
        guard case .iso14443A(let a) = target.parameters else { return .unknown }
        if let ats = a.ats {
            // NXP's IC information in the historical bytes (`C1 05`, then the chip: high nibble 2
            // MIFARE Plus, 1 DESFire — AN10833; the SpringCard MIFARE Plus reference reads it so).
            let history = ats.historicalBytes
            if history.count >= 3, history[0] == 0xC1, history[1] == 0x05 {
                switch history[2] >> 4 {
                case 0x2: return .plus
                case 0x1: return .desfire
                default: break
                }
            }
            return a.sak & 0x18 == 0x18 || a.sak == 0x08 ? .plus : .desfire
        }
        return a.sak == 0x00 ? .ultralight : .unknown
    }

    var identifier: Data { Data(target.identifier) }

    var historicalBytes: Data? {
        guard case .iso14443A(let a) = target.parameters, let ats = a.ats else { return nil }
        return Data(ats.historicalBytes)
    }

    func sendMiFareCommand(commandPacket command: Data) async throws -> Data {
        guard !command.isEmpty else {
            throw NFCReaderError(.readerErrorInvalidParameterLength, reason: "an empty command packet")
        }
        let answer = try await transceive([UInt8](command), timeout: .milliseconds(200))
        // A 4-bit NAK (any value but ACK `A`, NXP NTAG21x datasheet §9.3) is the tag refusing the
        // command — a protected page, a wrong length such as a command sent with its own CRC —
        // and Core NFC reports it as a tag response error, not as data.
        if answer.count == 1, answer[0] <= 0x0F, answer[0] != 0x0A {
            throw NFCReaderError(
                .readerTransceiveErrorTagResponseError,
                reason: "the tag answered NAK \(String(format: "%X", answer[0])) (a CRC is added by the reader; do not append one)")
        }
        return Data(answer)
    }

    func sendMiFareCommand(commandPacket command: Data, completionHandler: @escaping (Data, (any Error)?) -> Void) {
        nonisolated(unsafe) let completionHandler = completionHandler
        Task {
            do {
                let answer = try await sendMiFareCommand(commandPacket: command)
                deliver { completionHandler(answer, nil) }
            } catch {
                deliver { completionHandler(Data(), error) }
            }
        }
    }

    func sendMiFareISO7816Command(_ apdu: NFCISO7816APDU) async throws -> (Data, UInt8, UInt8) {
        guard historicalBytes != nil else {
            throw NFCReaderError(.readerErrorUnsupportedFeature, reason: "this MIFARE tag does not speak ISO 7816")
        }
        return try await APDURelay.send(apdu, through: self)
    }

    func sendMiFareISO7816Command(_ apdu: NFCISO7816APDU, completionHandler: @escaping (Data, UInt8, UInt8, (any Error)?) -> Void) {
        nonisolated(unsafe) let completionHandler = completionHandler
        Task {
            do {
                let (data, sw1, sw2) = try await sendMiFareISO7816Command(apdu)
                deliver { completionHandler(data, sw1, sw2, nil) }
            } catch {
                deliver { completionHandler(Data(), 0, 0, error) }
            }
        }
    }
}

/// Sends an `NFCISO7816APDU` over a tag's connection and splits the status word.
enum APDURelay {
    static func send(_ apdu: NFCISO7816APDU, through tag: NFCTagObject) async throws(NFCReaderError) -> (Data, UInt8, UInt8) {
        guard let frame = apdu.encodedBytes else {
            throw NFCReaderError(.readerErrorInvalidParameter, reason: "the APDU cannot be encoded")
        }
        try checkSelect(apdu, allowingPayment: (tag.owner as? NFCTagReaderSession)?.selectsPaymentAIDs ?? false)
        let answer = try await tag.transceive([UInt8](frame), timeout: .seconds(5))
        guard answer.count >= 2 else {
            throw NFCReaderError(
                .readerTransceiveErrorTagResponseError, reason: "the card answered \(answer.count) byte(s), without a status word")
        }
        return (Data(answer.dropLast(2)), answer[answer.count - 2], answer[answer.count - 1])
    }

    /// A SELECT by DF name (interindustry class, `INS A4`, `P1 04`, ISO/IEC 7816-4 §11.2.2) may
    /// name only an AID the app declares and that is not a payment AID: iOS refuses any other
    /// with `readerErrorSecurityViolation` before it reaches the card
    /// (revtel/react-native-nfc-manager#272, nfcim/flutter_nfc_kit#172). A SELECT under secure
    /// messaging (class bits b4–b3, or b6 for classes `4x`–`7x`, ISO/IEC 7816-4 §5.4.1) carries
    /// the name enciphered in `DO'87'`, which no reader can check; passport apps select the
    /// eMRTD application that way after PACE (ICAO Doc 9303 Part 11 §4.4), so it passes.
    static func checkSelect(_ apdu: NFCISO7816APDU, allowingPayment: Bool) throws(NFCReaderError) {
        guard apdu.instructionClass & 0x80 == 0, apdu.instructionCode == 0xA4, apdu.p1Parameter == 0x04 else { return }
        let cla = apdu.instructionClass
        let secureMessaging = cla < 0x40 ? cla & 0x0C != 0 : cla & 0x20 != 0
        guard !secureMessaging else { return }
        let aid = [UInt8](apdu.data ?? Data())
        guard let configuration = AppRules.configuration else { throw AppRules.missing }
        if let violation = configuration.checkCanSelect(aid: aid, allowingPayment: allowingPayment) { throw AppRules.error(violation) }
    }
}
