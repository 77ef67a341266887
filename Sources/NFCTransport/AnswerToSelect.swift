import NFCBytes

/// The Answer To Select (ATS) an ISO/IEC 14443-4 Type A card sends after RATS.
///
/// ISO/IEC 14443-4 §5.2: TL, T0 (FSCI and which interface bytes follow), TA(1) (bit rates),
/// TB(1) (FWI, SFGI), TC(1) (NAD/CID support), then the historical bytes.
public struct AnswerToSelect: Sendable, Hashable {
    /// The card's frame size code (0–8 in ISO/IEC 14443-4:2008; higher values are read as 8).
    public var fsci: UInt8
    /// TA(1), the bit rates the card supports; `nil` when absent (106 kbit/s only).
    public var ta: UInt8?
    /// TB(1), FWI in the high nibble and SFGI in the low; `nil` when absent (FWI 4, SFGI 0).
    public var tb: UInt8?
    /// TC(1), bit 1 NAD supported, bit 2 CID supported; `nil` when absent (CID supported).
    public var tc: UInt8?
    /// The historical bytes.
    public var historicalBytes: [UInt8]

    /// Makes an ATS from its fields. The defaults: FSCI 8 (256-byte frames), TA(1) 0x00 (106 kbit/s only),
    /// TB(1) 0x80 (FWI 8, SFGI 0), TC(1) 0x02 (CID supported, NAD not), no historical bytes.
    public init(fsci: UInt8 = 8, ta: UInt8? = 0x00, tb: UInt8? = 0x80, tc: UInt8? = 0x02, historicalBytes: [UInt8] = []) {
        self.fsci = fsci
        self.ta = ta
        self.tb = tb
        self.tc = tc
        self.historicalBytes = historicalBytes
    }

    /// Parses an ATS including its length byte TL (without CRC).
    ///
    /// - Throws: ``TransportError`` `.protocolViolation` when TL disagrees with the bytes or
    ///   T0 announces interface bytes that are missing.
    public init(bytes: [UInt8]) throws(TransportError) {
        guard let tl = bytes.first else {
            throw TransportError(.protocolViolation, "ATS is empty")
        }
        guard Int(tl) == bytes.count, tl >= 1 else {
            throw TransportError(.protocolViolation, "ATS length byte TL=\(tl) but \(bytes.count) bytes received")
        }
        guard tl >= 2 else {
            // Only TL: every parameter takes its default value (§5.2.1).
            self.init(fsci: 2, ta: nil, tb: nil, tc: nil, historicalBytes: [])
            return
        }
        let t0 = bytes[1]
        guard t0 & 0x80 == 0 else {
            throw TransportError(.protocolViolation, "ATS T0 bit 8 is set (RFU, must be 0)")
        }
        var index = 2
        func interfaceByte(present: Bool, name: String) throws(TransportError) -> UInt8? {
            guard present else { return nil }
            guard index < bytes.count else {
                throw TransportError(.protocolViolation, "ATS T0 announces \(name) but the ATS ends at byte \(index)")
            }
            defer { index += 1 }
            return bytes[index]
        }
        let ta = try interfaceByte(present: t0 & 0x10 != 0, name: "TA(1)")
        let tb = try interfaceByte(present: t0 & 0x20 != 0, name: "TB(1)")
        let tc = try interfaceByte(present: t0 & 0x40 != 0, name: "TC(1)")
        self.init(fsci: t0 & 0x0F, ta: ta, tb: tb, tc: tc, historicalBytes: Array(bytes[index...]))
    }

    /// The encoded ATS, TL first.
    public var bytes: [UInt8] {
        var t0 = fsci & 0x0F
        var body: [UInt8] = []
        if let ta {
            t0 |= 0x10
            body.append(ta)
        }
        if let tb {
            t0 |= 0x20
            body.append(tb)
        }
        if let tc {
            t0 |= 0x40
            body.append(tc)
        }
        let all = [t0] + body + historicalBytes
        return [UInt8(truncatingIfNeeded: all.count + 1)] + all
    }

    /// FSC, the largest frame the card accepts, in bytes (ISO/IEC 14443-4 Table 2; codes above 8 read as 256).
    public var frameSize: Int { Self.frameSize(code: fsci) }

    /// Frame-size codes 0–8: 16 24 32 40 48 64 96 128 256 bytes (ISO/IEC 14443-4 Table 2).
    public static func frameSize(code: UInt8) -> Int {
        let sizes = [16, 24, 32, 40, 48, 64, 96, 128, 256]
        return sizes[Int(min(code, 8))]
    }

    /// FWI, the frame waiting time integer (default 4).
    public var fwi: UInt8 { min((tb ?? 0x40) >> 4, 14) }

    /// FWT = 256·16/fc·2^FWI (ISO/IEC 14443-4 §7.2), as a duration.
    public var frameWaitingTime: Duration {
        let fc = 13_560_000.0
        let seconds = 256.0 * 16.0 / fc * Double(1 << Int(fwi))
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    /// The highest bit rate the card supports in both directions (TA(1) bits; same-rate bit 8 ignored).
    public var maximumBitRate: BitRate {
        guard let ta else { return .kbps106 }
        // b7..b5: DS 848/424/212 (tag→reader), b3..b1: DR 848/424/212 (reader→tag).
        let ds = (ta >> 4) & 0x07
        let dr = ta & 0x07
        let both = ds & dr
        if both & 0x04 != 0 { return .kbps848 }
        if both & 0x02 != 0 { return .kbps424 }
        if both & 0x01 != 0 { return .kbps212 }
        return .kbps106
    }

    /// Whether the card accepts a CID byte (TC(1) bit 2; default yes).
    public var supportsCID: Bool { ((tc ?? 0x02) & 0x02) != 0 }
    /// Whether the card accepts a NAD byte (TC(1) bit 1).
    public var supportsNAD: Bool { ((tc ?? 0x00) & 0x01) != 0 }
}
