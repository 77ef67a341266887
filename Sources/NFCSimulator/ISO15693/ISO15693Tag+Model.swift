extension ISO15693Tag {
    /// The chips this type models, with the facts their data sheets give.
    ///
    /// - ``icodeSLIX2``: NXP ICODE SLIX2 (SL2S2602 data sheet Rev. 4.2): 80 blocks of 4 bytes (79 user
    ///   blocks, 2528 bit, plus the 16-bit counter in block 79), IC manufacturer code 0x04, UID
    ///   `E0 04 01` with UID bits 36–35 = `01`. No Write Multiple Blocks, no extended commands.
    /// - ``st25dv16k``: STMicroelectronics ST25DV16K (DS10925): 512 blocks of 4 bytes (16 Kbit), IC
    ///   manufacturer code 0x02, IC reference 0x26 (UID `E0 02 26`). Blocks past 255 need the
    ///   extended commands 0x30–0x3C; Write Multiple Blocks takes up to 4 blocks; custom fast reads.
    public enum Model: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
        /// NXP ICODE SLIX2: 80 blocks of 4 bytes.
        case icodeSLIX2
        /// STMicroelectronics ST25DV16K: 512 blocks of 4 bytes.
        case st25dv16k

        /// The chip's marketing name: `NXP ICODE SLIX2` or `ST25DV16K`.
        public var description: String {
            switch self {
            case .icodeSLIX2: "NXP ICODE SLIX2"
            case .st25dv16k: "ST25DV16K"
            }
        }

        /// Blocks the RF interface addresses.
        public var blockCount: Int {
            switch self {
            case .icodeSLIX2: 80
            case .st25dv16k: 512
            }
        }

        /// Bytes per block.
        public var blockSize: Int { 4 }

        /// Bytes of memory the RF interface reaches.
        public var memorySize: Int { blockCount * blockSize }

        /// The IC manufacturer code (ISO/IEC 7816-6): UID byte 2 and the custom-command prefix.
        public var icManufacturerCode: UInt8 {
            switch self {
            case .icodeSLIX2: 0x04
            case .st25dv16k: 0x02
            }
        }

        /// The IC reference Get System Information reports.
        var icReference: UInt8 {
            switch self {
            case .icodeSLIX2: 0x01
            case .st25dv16k: 0x26
            }
        }

        /// Whether the chip implements the extended (16-bit block number) commands 0x30–0x3C.
        public var supportsExtendedCommands: Bool { self == .st25dv16k }

        /// Whether the chip implements Lock Block (0x22): the SLIX2 locks blocks one by one; the
        /// ST25DV protects memory by areas and passwords instead (DS10925, data protection), not modelled.
        public var supportsLockBlock: Bool { self == .icodeSLIX2 }

        /// The most blocks one Write Multiple Blocks may carry; `nil` when the chip lacks the command.
        public var maximumBlocksPerWrite: Int? {
            switch self {
            case .icodeSLIX2: nil
            case .st25dv16k: 4
            }
        }

        /// The block holding the SLIX2's 16-bit counter (SL2S2602 data sheet), which WRITE SINGLE BLOCK
        /// with `01 00 00 00` increments.
        var counterBlock: Int? { self == .icodeSLIX2 ? 79 : nil }

        /// EEPROM programming time of one block: ST25DV16K "from RF: typical 5 ms for 1 block"
        /// (DS10925 features); the SLIX2 data sheet gives no figure, 5 ms is assumed.
        var blockProgrammingTime: Duration { .milliseconds(5) }

        /// Whether Get System Information (0x2B) reports the memory size: the ST25DV16K leaves it
        /// out (information flags 0x0B) because 512 blocks do not fit its one-byte field.
        var systemInfoHasMemorySize: Bool { self == .icodeSLIX2 }

        /// A UID this model's factory could have programmed (used by the default constructors).
        public var sampleUID: [UInt8] {
            switch self {
            case .icodeSLIX2: [0xE0, 0x04, 0x01, 0x08, 0x3A, 0x5C, 0x71, 0x92]
            case .st25dv16k: [0xE0, 0x02, 0x26, 0x00, 0x5B, 0x1F, 0x82, 0x44]
            }
        }

        /// Why a UID cannot belong to this chip, or `nil` when it can (MSB first).
        func uidProblem(_ uid: [UInt8]) -> String? {
            guard uid.count == 8 else { return "an ISO/IEC 15693 UID has 8 bytes, not \(uid.count)" }
            guard uid[0] == 0xE0 else { return "an ISO/IEC 15693 UID starts with E0" }
            guard uid[1] == icManufacturerCode else {
                return "a \(self) UID carries IC manufacturer code \(ISO15693Tag.hexByte(icManufacturerCode))"
            }
            switch self {
            case .icodeSLIX2:
                guard uid[2] == 0x01, uid[3] & 0x18 == 0x08 else {
                    return "an ICODE SLIX2 UID reads E0 04 01 with UID bits 36–35 = 01"
                }
            case .st25dv16k:
                guard uid[2] == 0x26 else { return "an ST25DV16K UID reads E0 02 26" }
            }
            return nil
        }

        /// The NFC Forum Type 5 capability container of a formatted tag (T5T 1.0 §4.3): the SLIX2
        /// uses the 4-byte form (data area 39 × 8 bytes, ending before the counter block); the
        /// ST25DV16K's 2 KB need the 8-byte form with MLEN 0x00FF (2040 bytes) and E2 (2-byte
        /// addressing). Feature byte 0x01: Read Multiple Blocks supported.
        public var capabilityContainer: [UInt8] {
            switch self {
            case .icodeSLIX2: [0xE1, 0x40, 0x27, 0x01]
            case .st25dv16k: [0xE2, 0x40, 0x00, 0x01, 0x00, 0x00, 0x00, 0xFF]
            }
        }
    }
}

extension ISO15693Tag {
    /// Two hex digits, for messages.
    static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
