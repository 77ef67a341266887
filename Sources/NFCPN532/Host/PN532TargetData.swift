import NFCBytes
import NFCTransport

/// The modulations the host polls with InListPassiveTarget: the BrTy byte (UM0701-02 §7.3.5).
enum PN532Modulation: UInt8, CaseIterable {
    /// Innovision Jewel: NFC Forum Type 1 tags (Topaz), which take no part in type A
    /// anticollision. Polled before type A: each poll drops the chip's list, and type A cards
    /// are the ones commands go to most.
    case jewel = 0x04
    /// 106 kbit/s type A (ISO/IEC 14443 A, MIFARE).
    case typeA = 0x00
    /// FeliCa at 212 kbit/s.
    case felica212 = 0x01
    /// 106 kbit/s type B (ISO/IEC 14443-3 B).
    case typeB = 0x03

    /// The technology the modulation finds.
    var technology: Technology {
        switch self {
        case .typeA, .jewel: .iso14443A
        case .felica212: .felica
        case .typeB: .iso14443B
        }
    }

    /// MaxTg: the chip lists at most two targets (§7.3.5); FeliCa and type B one here.
    var maximumTargets: UInt8 { self == .typeA ? 2 : 1 }

    /// The initiator data of a poll for any card: none for type A; the FeliCa Polling payload
    /// for any system code, asking for it (`00 FF FF 01 00`, JIS X 6319-4 §9.1); AFI `00` (all
    /// families) for type B.
    var pollData: [UInt8] {
        switch self {
        case .typeA, .jewel: []
        case .felica212: [0x00, 0xFF, 0xFF, 0x01, 0x00]
        case .typeB: [0x00]
        }
    }

    /// The modulation a target was found with.
    init(_ target: TargetInfo) {
        switch target.parameters {
        case .felica: self = .felica212
        case .iso14443B: self = .typeB
        case .iso14443A(let a) where a.isType1Platform: self = .jewel
        default: self = .typeA
        }
    }
}

/// Reads the targets out of an InListPassiveTarget answer (UM0701-02 §7.3.5, the TargetData
/// tables per BrTy). A truncated or inconsistent answer is a `.protocolViolation` that names
/// the target and the byte.
enum PN532TargetData {
    /// `(Tg, identifier, parameters)` for each target: NbTg, then each target's data.
    static func parse(
        _ answer: [UInt8], modulation: PN532Modulation, reader: String
    ) throws(TransportError) -> [(UInt8, [UInt8], TargetInfo.Parameters)] {
        var reader = Cursor(bytes: answer, reader: reader)
        let count = try reader.byte("NbTg")
        guard count <= 2 else { throw reader.violation("NbTg \(count) (at most 2)") }
        var targets: [(UInt8, [UInt8], TargetInfo.Parameters)] = []
        for index in 0..<Int(count) {
            reader.target = index + 1
            let number = try reader.byte("Tg")
            switch modulation {
            case .typeA:
                // SENS_RES as the chip prints it (second byte received first), SEL_RES, NFCID1, ATS.
                let sens = try reader.bytes(2, "SENS_RES")
                let sak = try reader.byte("SEL_RES")
                let length = try reader.byte("NFCIDLength")
                guard [4, 7, 10].contains(length) else { throw reader.violation("a UID of \(length) bytes") }
                let uid = try reader.bytes(Int(length), "NFCID1")
                var ats: AnswerToSelect?
                if sak & 0x20 != 0, reader.hasMore {
                    let tl = try reader.byte("ATS length")
                    guard tl >= 1 else { throw reader.violation("an ATS length of 0") }
                    let rest = try reader.bytes(Int(tl) - 1, "ATS")
                    do {
                        ats = try AnswerToSelect(bytes: [tl] + rest)
                    } catch {
                        throw reader.violation("ATS: \(error.reason)")
                    }
                }
                let atqa = UInt16(sens[0]) << 8 | UInt16(sens[1])
                targets.append((number, uid, .iso14443A(.init(atqa: atqa, sak: sak, ats: ats))))
            case .jewel:
                // SENS_RES as the chip prints it, then JEWELID: UID-0…3 from RID (§7.3.5).
                let sens = try reader.bytes(2, "SENS_RES")
                let id = try reader.bytes(4, "JEWELID")
                targets.append((number, id, .iso14443A(.init(atqa: UInt16(sens[0]) << 8 | UInt16(sens[1]), sak: 0x00))))
            case .felica212:
                let length = try reader.byte("POL_RES length")
                guard length == 18 || length == 20 else { throw reader.violation("a POL_RES of \(length) bytes (18 or 20)") }
                let response = try reader.bytes(Int(length) - 1, "POL_RES")
                guard response[0] == 0x01 else { throw reader.violation("POL_RES code \(Hex.encode([response[0]])) (01 expected)") }
                let idm = Array(response[1...8])
                let pmm = Array(response[9...16])
                let systemCode = length == 20 ? UInt16(response[17]) << 8 | UInt16(response[18]) : 0xFFFF
                targets.append((number, idm, .felica(.init(pmm: pmm, systemCode: systemCode, maximumBitRate: .kbps212))))
            case .typeB:
                let atqb = try reader.bytes(12, "ATQB")
                guard atqb[0] == 0x50 else { throw reader.violation("ATQB starting \(Hex.encode([atqb[0]])) (50 expected)") }
                let attribLength = try reader.byte("ATTRIB_RES length")
                let attrib = try reader.bytes(Int(attribLength), "ATTRIB_RES")
                let parameters = TargetInfo.ISO14443B(
                    applicationData: Array(atqb[5...8]), protocolInfo: Array(atqb[9...11]), higherLayerResponse: Array(attrib.dropFirst()))
                targets.append((number, Array(atqb[1...4]), .iso14443B(parameters)))
            }
        }
        return targets
    }

    /// A UID as InListPassiveTarget's initiator data takes it, with the cascade tags (`88`,
    /// ISO/IEC 14443-3 §6.5.4) a 7- or 10-byte UID is selected with.
    static func cascaded(_ uid: [UInt8]) -> [UInt8] {
        switch uid.count {
        case 7: [0x88] + uid
        case 10: [0x88] + uid[0..<3] + [0x88] + uid[3...]
        default: uid
        }
    }

    /// Reads an answer front to back, naming what is missing.
    private struct Cursor {
        let bytes: [UInt8]
        let reader: String
        var offset = 0
        var target = 0

        init(bytes: [UInt8], reader: String) {
            self.bytes = bytes
            self.reader = reader
        }

        var hasMore: Bool { offset < bytes.count }

        mutating func byte(_ what: String) throws(TransportError) -> UInt8 {
            try bytes(1, what)[0]
        }

        mutating func bytes(_ count: Int, _ what: String) throws(TransportError) -> [UInt8] {
            guard count >= 0, offset + count <= bytes.count else {
                throw violation("it ends at byte \(bytes.count) inside \(what) (\(count) bytes from byte \(offset))")
            }
            defer { offset += count }
            return Array(bytes[offset..<(offset + count)])
        }

        func violation(_ what: String) -> TransportError {
            let place = target > 0 ? " (target \(target))" : ""
            return TransportError(.protocolViolation, "\(reader): InListPassiveTarget's answer\(place): \(what)")
        }
    }
}
