/// GetVersion's answer, the same layout on every DESFire-family chip (NT4H2421Gx §10.5.2, Tables
/// 53–59; MIFARE DESFire EV1 short data sheet §9): hardware and software identity, then the UID
/// and production data.
public struct DESFireVersion: Sendable, Hashable {
    /// One of the two identity parts.
    public struct Part: Sendable, Hashable {
        /// `04` for NXP.
        public var vendor: UInt8
        /// `01` for MIFARE DESFire, `04` for NTAG, `08` for DESFire Light.
        public var type: UInt8
        /// `02` for the 50 pF input capacitance (low nibble), high nibble the back modulation.
        public var subtype: UInt8
        /// Major version.
        public var major: UInt8
        /// Minor version.
        public var minor: UInt8
        /// `11`: between 256 and 512 bytes.
        public var storageSize: UInt8
        /// `05`: ISO/IEC 14443-2 and -3.
        public var protocolType: UInt8

        init(_ bytes: ArraySlice<UInt8>) {
            let b = Array(bytes)
            (vendor, type, subtype, major, minor, storageSize, protocolType) = (b[0], b[1], b[2], b[3], b[4], b[5], b[6])
        }
    }

    /// The hardware part.
    public var hardware: Part
    /// The software part.
    public var software: Part
    /// The 7-byte UID (zeros when Random ID is on).
    public var uid: [UInt8]
    /// The batch number, 4 bytes and the high nibble of the next.
    public var batch: [UInt8]
    /// The calendar week of production, 1–52 (BCD as sent).
    public var productionWeek: UInt8
    /// The year of production (BCD as sent, `26` for 2026).
    public var productionYear: UInt8

    /// Whether the hardware says NTAG 424 DNA (NXP, NTAG, version 3.0).
    public var isNTAG424DNA: Bool { hardware.vendor == 0x04 && hardware.type == 0x04 && hardware.major == 0x30 }

    /// The MIFARE DESFire generation the hardware version names (NXP, type `01`; major `01` EV1,
    /// `12` EV2, `33` EV3 — the values the chips report), `nil` for other chips.
    public var desfireGeneration: String? {
        guard hardware.vendor == 0x04, hardware.type == 0x01 else { return nil }
        switch hardware.major {
        case 0x00: return "DESFire (D40)"
        case 0x01: return "DESFire EV1"
        case 0x12: return "DESFire EV2"
        case 0x33: return "DESFire EV3"
        default: return "DESFire (hardware \(hardware.major).\(hardware.minor))"
        }
    }

    /// The storage size byte read out: 2^(n/2) bytes, or between that and the next power when bit 0 is set.
    public var storageBytes: Int { 1 << Int(hardware.storageSize >> 1) }

    /// Reads the three parts, concatenated (7 + 7 + 14 or 15 bytes).
    /// - Throws: ``DESFireError`` `.malformedResponse` for another length.
    public init(parsing bytes: [UInt8]) throws(DESFireError) {
        guard bytes.count == 28 || bytes.count == 29 else {
            throw DESFireError(.malformedResponse, "GetVersion answered \(bytes.count) bytes; 28 or 29 expected")
        }
        hardware = Part(bytes[0..<7])
        software = Part(bytes[7..<14])
        uid = Array(bytes[14..<21])
        batch = Array(bytes[21..<26])
        productionWeek = bytes[26] & 0x7F
        productionYear = bytes[27]
    }
}

/// NTAG 424 DNA's GetVersion answer: the DESFire layout.
public typealias NTAG424Version = DESFireVersion
