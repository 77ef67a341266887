import Foundation
import NFCCommandSets

/// Building FeliCa command frames and checking their answers, as the tag's connection carries
/// them: the command code first, without the LEN byte and the CRC (JIS X 6319-4 §8.1).
///
/// Every response starts with the response code (the command code plus one) and, except for
/// Polling, the IDm the command addressed (FeliCa Card User's Manual Excerpted Edition §4.4).
/// An answer that is shorter than its fields, has the wrong response code or another IDm is a
/// tag response error, never a trap.
enum FeliCaFrame {
    static let polling = FeliCaCommandCode.polling
    static let requestService = FeliCaCommandCode.requestService
    static let requestResponse = FeliCaCommandCode.requestResponse
    static let readWithoutEncryption = FeliCaCommandCode.readWithoutEncryption
    static let writeWithoutEncryption = FeliCaCommandCode.writeWithoutEncryption
    static let requestSystemCode = FeliCaCommandCode.requestSystemCode
    static let requestServiceV2 = FeliCaCommandCode.requestServiceV2
    static let requestSpecificationVersion = FeliCaCommandCode.requestSpecificationVersion
    static let resetMode = FeliCaCommandCode.resetMode

    /// The longest frame body: LEN is one byte and counts itself (JIS X 6319-4 §8.1).
    static let maximumLength = FeliCaCommandCode.maximumFrameBody

    /// A frame addressed to a system: command code, IDm, parameters.
    static func addressed(_ code: UInt8, idm: Data, _ parameters: [UInt8] = []) throws(NFCReaderError) -> [UInt8] {
        let frame = [code] + [UInt8](idm) + parameters
        guard frame.count <= maximumLength else {
            throw NFCReaderError(
                .readerTransceiveErrorPacketTooLong,
                reason: "the command takes \(frame.count) bytes, more than the \(maximumLength) a FeliCa frame holds")
        }
        return frame
    }

    /// The bytes after response code and IDm, once they are checked and at least `minimum` long.
    static func body(
        of answer: [UInt8], command code: UInt8, idm: Data, minimum: Int
    ) throws(NFCReaderError) -> ArraySlice<UInt8> {
        guard answer.count >= 9 + minimum else {
            throw truncated(code, answer.count, expected: 9 + minimum)
        }
        guard answer[0] == code &+ 1 else {
            throw NFCReaderError(
                .readerTransceiveErrorTagResponseError, reason: String(format: "response code %02X to command %02X", answer[0], code))
        }
        guard answer[1..<9].elementsEqual(idm) else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError, reason: "the answer carries another IDm")
        }
        return answer[9...]
    }

    /// Status Flag 1 and Status Flag 2, the first two bytes of a body.
    static func statusFlags(_ body: ArraySlice<UInt8>) -> (Int, Int) {
        (Int(body[body.startIndex]), Int(body[body.startIndex + 1]))
    }

    static func truncated(_ code: UInt8, _ count: Int, expected: Int) -> NFCReaderError {
        NFCReaderError(
            .readerTransceiveErrorTagResponseError,
            reason: String(format: "the answer to command %02X has %d bytes, expected at least %d", code, count, expected))
    }

    /// Splits `count` 2-byte fields off the front of a slice.
    static func pairs(_ bytes: ArraySlice<UInt8>, count: Int) -> [Data] {
        (0..<count).map { index in
            let start = bytes.startIndex + 2 * index
            return Data(bytes[start..<start + 2])
        }
    }
}

/// How long a reader waits for a FeliCa card, from its PMm (JIS X 6319-4 §11, FeliCa Card User's
/// Manual Excerpted Edition §2.3.2): PMm byte D2–D7 holds `E(2) B(3) A(3)` for a kind of command,
/// and a command on n blocks or nodes is answered within `256·16/fc · ((B+1)·n + A+1) · 4^E`.
enum FeliCaResponseTime {
    enum Parameter: Int {
        case requestService = 2, fixed = 3, authentication = 4, read = 5, write = 6, other = 7
    }

    /// The time for one PMm parameter, plus 1 ms for the reader's own turnaround.
    static func timeout(pmm: [UInt8], _ parameter: Parameter, units: Int) -> Duration {
        let byte = pmm.indices.contains(parameter.rawValue) ? pmm[parameter.rawValue] : 0xFF
        let a = Double(byte & 0x07)
        let b = Double((byte >> 3) & 0x07)
        let scale = Double(1 << (2 * Int(byte >> 6)))
        let unit = 256.0 * 16.0 / 13_560_000.0
        let seconds = unit * ((b + 1) * Double(units) + a + 1) * scale
        return .nanoseconds(Int64(seconds * 1e9)) + .milliseconds(1)
    }

    /// Polling: 512·64/fc to the first time slot, 256·64/fc per slot (JIS X 6319-4 §9.2.2), the
    /// last slot's answer included, plus 1 ms.
    static func polling(timeSlot: NFCFeliCaPollingTimeSlot) -> Duration {
        let slots = Double(timeSlot.rawValue + 1)
        let seconds = (512.0 + 256.0 * slots) * 64.0 / 13_560_000.0
        return .nanoseconds(Int64(seconds * 1e9)) + .milliseconds(1)
    }

    /// A raw command: the PMm parameter its code falls under, for up to 16 units.
    static func raw(pmm: [UInt8], code: UInt8) -> Duration {
        let parameter: Parameter =
            switch code {
            case FeliCaFrame.requestService, FeliCaFrame.requestServiceV2: .requestService
            case FeliCaFrame.requestResponse, 0x0A, FeliCaFrame.requestSystemCode: .fixed
            case 0x10, 0x12, 0x40, 0x42: .authentication
            case FeliCaFrame.readWithoutEncryption, 0x14: .read
            case FeliCaFrame.writeWithoutEncryption, 0x16: .write
            default: .other
            }
        return timeout(pmm: pmm, parameter, units: 16)
    }
}
