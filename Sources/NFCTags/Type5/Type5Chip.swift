import NFCBytes

/// What the UID and the system information tell about the chip: its name and the few facts the
/// engine uses (Lock Block support, a multi-block read cap, memory the NDEF area must leave alone).
///
/// ISO/IEC 15693-3 §7.1 puts the IC manufacturer code (ISO/IEC 7816-6) in the UID byte after
/// `E0`; NXP follows it with an ICODE type byte, ST and TI with an IC reference or product code.
struct Type5Chip: Sendable, Hashable {
    /// The UID, most significant byte first (`E0 04 01 …`).
    let uid: [UInt8]

    var manufacturerCode: UInt8? { uid.count == 8 && uid[0] == 0xE0 ? uid[1] : nil }
    /// The byte after the manufacturer code: NXP's ICODE type, ST's IC reference, TI's product code.
    var productByte: UInt8? { uid.count == 8 ? uid[2] : nil }

    enum Manufacturer {
        static let st: UInt8 = 0x02
        static let nxp: UInt8 = 0x04
        static let infineon: UInt8 = 0x05
        static let ti: UInt8 = 0x07
        static let em: UInt8 = 0x16
        static let onsemi: UInt8 = 0x67
    }

    /// The IC manufacturer's name (ISO/IEC 7816-6 register, the ones seen on ISO 15693 tags).
    var manufacturerName: String? {
        switch manufacturerCode {
        case Manufacturer.st?: "STMicroelectronics"
        case Manufacturer.nxp?: "NXP Semiconductors"
        case Manufacturer.infineon?: "Infineon Technologies"
        case Manufacturer.ti?: "Texas Instruments"
        case Manufacturer.em?: "EM Microelectronic-Marin"
        case Manufacturer.onsemi?: "onsemi"
        default: nil
        }
    }

    /// The chip's name, or `nil` when the UID and IC reference name no chip this table knows.
    ///
    /// - NXP: UID byte 6 = ICODE type (01 SLI/SLIX/SLIX2, 02 SLI-S/SLIX-S, 03 SLI-L/SLIX-L) and UID
    ///   bits 36–35 (00 first generation, 10 SLIX, 01 SLIX2; SL2S2602 data sheet, UID).
    /// - ST: the IC reference (ST25DV04K 0x24; 0x26 is the ST25DV16K with 512 blocks, the ST25DV64K
    ///   with 2048; the M24LR family).
    /// - TI: the Tag-it HF-I product code in the upper 7 bits of UID byte 6.
    func model(icReference: UInt8?, blockCount: Int?) -> String? {
        guard let code = manufacturerCode, let product = productByte, uid.count == 8 else { return nil }
        switch code {
        case Manufacturer.nxp:
            let generation = (uid[3] >> 3) & 0x03
            let base: String
            switch product {
            case 0x01: base = ""
            case 0x02: base = "-S"
            case 0x03: base = "-L"
            default: return nil
            }
            switch generation {
            case 0b00: return "ICODE SLI\(base)"
            case 0b10: return "ICODE SLIX\(base)"
            case 0b01 where product == 0x01: return "ICODE SLIX2"
            default: return nil
            }
        case Manufacturer.st:
            switch icReference ?? product {
            case 0x24: return "ST25DV04K"
            case 0x26:
                switch blockCount {
                case 512?: return "ST25DV16K"
                case 2048?: return "ST25DV64K"
                default: return "ST25DV16K/64K"
                }
            case 0x2C: return "M24LR64-R"
            case 0x4E: return "M24LR16E-R"
            case 0x5A: return "M24LR04E-R"
            case 0x5E: return "M24LR64E-R"
            default: return nil
            }
        case Manufacturer.ti:
            switch product & 0xFE {
            case 0x00: return "Tag-it HF-I Plus (inlay)"
            case 0x80: return "Tag-it HF-I Plus"
            case 0xC0: return "Tag-it HF-I Standard"
            case 0xC4: return "Tag-it HF-I Pro"
            default: return nil
            }
        default:
            return nil
        }
    }

    /// Whether the chip is known to implement Lock Block: the ICODE SLI family does (SL2S2602 data sheet);
    /// the ST25DV protects memory by areas and passwords and answers error 0x01 (DS10925, data protection).
    /// `nil` when unknown.
    var supportsLockBlock: Bool? {
        switch manufacturerCode {
        case Manufacturer.nxp?: return (0x01...0x03).contains(productByte ?? 0) ? true : nil
        case Manufacturer.st?: return productByte == 0x24 || productByte == 0x26 ? false : nil
        default: return nil
        }
    }

    /// Whether the chip is known to implement Read Multiple Blocks (the ICODE SLI family and the
    /// ST25DV do); `nil` when unknown.
    var supportsReadMultipleBlocks: Bool? {
        switch manufacturerCode {
        case Manufacturer.nxp?: return (0x01...0x03).contains(productByte ?? 0) ? true : nil
        case Manufacturer.st?: return productByte == 0x24 || productByte == 0x26 ? true : nil
        default: return nil
        }
    }

    /// The most blocks one Read Multiple Blocks may cover and whether a read must stay inside a
    /// 32-block sector: ST's M24LR and LRI chips (IC references 0x20, 0x28, 0x2C, 0x40, 0x44,
    /// 0x4E, 0x5A, 0x5E) read at most 32 blocks of one sector (M24LR16E-R data sheet, Read
    /// Multiple Block); `nil` when the chip has no known cap.
    var readCap: (blocks: Int, sectorAligned: Bool)? {
        guard manufacturerCode == Manufacturer.st, let product = productByte else { return nil }
        return [0x20, 0x28, 0x2C, 0x40, 0x44, 0x4E, 0x5A, 0x5E].contains(product) ? (32, true) : nil
    }

    /// The blocks an NDEF area may use, when the chip keeps some of its memory for itself: the
    /// ICODE SLIX2's block 79 is its 16-bit counter (SL2S2602 data sheet, counter), so 79 of its 80 blocks.
    func usableBlocks(of blockCount: Int) -> Int {
        model(icReference: nil, blockCount: blockCount) == "ICODE SLIX2" && blockCount == 80 ? 79 : blockCount
    }

    /// Whether writes must carry the option flag (the T5T special frame) although no CC says so:
    /// TI's Tag-it HF-I answers writes and locks only after the reader's EOF.
    var needsOptionFlagForWrites: Bool { manufacturerCode == Manufacturer.ti }
}
