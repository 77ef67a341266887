import NFCBytes
import NFCTransport

/// Native READ and WRITE frames carried as PC/SC READ BINARY / UPDATE BINARY, for readers
/// without a transparent session (`ExchangeLimits.NativeCommands.readAndWriteOnly`).
///
/// The answer is what the tag would have sent: Type 2 (NFC Forum Type 2 Tag §5) READ → 16
/// bytes, WRITE → ACK `0A`, a refusal → NAK `00`; ISO/IEC 15693-3 §10.3 Read Single/Multiple
/// Block(s) → flags `00` + data, Write Single Block → `00`, a refusal → error `01 10`/`01 13`.
enum PseudoAPDUTranslation {
    /// One step of a translated command: the APDU to send.
    struct Plan {
        var apdus: [[UInt8]]
        var technology: Technology
        var isWrite: Bool
        var blockSecurityStatus: Bool
    }

    /// - Parameters:
    ///   - profile: the reader; a uTrust 3700 F answers one 4-byte page per READ BINARY
    ///     (Identiv CLOUD 370x F manual §6.2.1), so a Type 2 READ becomes four of them.
    ///   - reader: the reader as errors name it (``PCSCConnection/readerPhrase(profile:readerName:)``);
    ///     the profile's model when not given.
    static func plan(_ frame: [UInt8], technology: Technology, profile: ReaderProfile = .generic, reader: String? = nil)
        throws(TransportError) -> Plan
    {
        let named = reader ?? profile.readerModel
        func unsupported() -> TransportError {
            TransportError(
                .unsupportedCommand,
                "\(named) only carries READ and WRITE (PC/SC pseudo-APDUs), not \(frame.first.map { Hex.encode([$0]) } ?? "an empty frame")"
            )
        }
        switch technology {
        case .iso14443A, .iso14443B:
            guard let code = frame.first else { throw unsupported() }
            if code == 0x30, frame.count == 2, profile == .utrust3700f {
                // READ rolls over past the last page to page 0 (NTAG213/215/216 §10.2): the
                // connection reads on from page 0 when a page does not exist (`6A 82`).
                return Plan(
                    apdus: (0..<4).map { PseudoAPDU.readBinary(address: (Int(frame[1]) + $0) & 0xFF, length: 4) }, technology: technology,
                    isWrite: false, blockSecurityStatus: false)
            }
            if code == 0x30, frame.count == 2 {
                return Plan(
                    apdus: [PseudoAPDU.readBinary(address: Int(frame[1]), length: 16)], technology: technology, isWrite: false,
                    blockSecurityStatus: false)
            }
            if code == 0xA2, frame.count == 6 {
                return Plan(
                    apdus: [PseudoAPDU.updateBinary(address: Int(frame[1]), data: Array(frame[2...]))], technology: technology,
                    isWrite: true, blockSecurityStatus: false)
            }
            throw unsupported()
        case .iso15693:
            guard frame.count >= 2 else { throw unsupported() }
            let flags = frame[0]
            var index = 2 + (flags & 0x20 != 0 ? 8 : 0)  // addressed: the UID follows the command code
            let extended = [0x30, 0x31, 0x33].contains(frame[1])
            let addressWidth = extended ? 2 : 1
            guard frame.count >= index + addressWidth else { throw unsupported() }
            let address = extended ? Int(frame[index]) | Int(frame[index + 1]) << 8 : Int(frame[index])
            index += addressWidth
            let options = flags & 0x40 != 0
            switch frame[1] {
            case 0x20, 0x30:
                return Plan(
                    apdus: [PseudoAPDU.readBinary(address: address, length: 0)], technology: .iso15693, isWrite: false,
                    blockSecurityStatus: options)
            case 0x23, 0x33:
                guard frame.count >= index + addressWidth else { throw unsupported() }
                let count = (extended ? Int(frame[index]) | Int(frame[index + 1]) << 8 : Int(frame[index])) + 1
                let apdus = (0..<count).map { PseudoAPDU.readBinary(address: address + $0, length: 0) }
                return Plan(apdus: apdus, technology: .iso15693, isWrite: false, blockSecurityStatus: options)
            case 0x21, 0x31:
                guard frame.count > index else { throw unsupported() }
                return Plan(
                    apdus: [PseudoAPDU.updateBinary(address: address, data: Array(frame[index...]))], technology: .iso15693, isWrite: true,
                    blockSecurityStatus: false)
            default:
                throw unsupported()
            }
        case .felica:
            throw TransportError(
                .unsupportedCommand,
                "FeliCa commands need a reader with a transparent session (PC/SC Part 3 §3.2.2.1.9) or FeliCa pseudo-APDUs; \(named) has neither"
            )
        }
    }

    /// The tag's answer, from the reader's answers to each APDU of `plan` (each data + SW).
    static func answer(_ answers: [(data: [UInt8], sw: UInt16)], plan: Plan) -> [UInt8] {
        let refused = answers.contains { $0.sw != 0x9000 }
        switch plan.technology {
        case .iso15693:
            if refused { return [0x01, plan.isWrite ? 0x13 : 0x10] }
            if plan.isWrite { return [0x00] }
            return [0x00] + answers.flatMap { (plan.blockSecurityStatus ? [0x00] : []) + $0.data }
        default:
            if refused { return [0x00] }
            return plan.isWrite ? [0x0A] : answers.flatMap(\.data)
        }
    }
}
