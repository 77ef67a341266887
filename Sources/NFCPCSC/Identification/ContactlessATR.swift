import NFCBytes
import NFCTransport

/// What a contactless reader's ATR says about the tag (PC/SC Part 3 §3.1.3.2.3).
public enum ContactlessATR: Sendable, Hashable {
    /// A storage tag: the ATR's historical bytes are `80 4F 0C A0 00 00 03 06 SS NN NN 00 00 00 00`.
    case storage(standard: UInt8, cardName: UInt16)
    /// An ISO/IEC 14443-4 card: its historical bytes (the ATS's for Type A; ATQB application
    /// data, protocol info and MBLI/CID for Type B).
    case isoDEP(historicalBytes: [UInt8])
    /// Not a contactless reader's ATR (a contact card, or a virtual card such as vsmartcard's
    /// `vicc`): an ISO/IEC 7816 card the reader does not answer pseudo-APDUs for.
    case contact(historicalBytes: [UInt8])

    /// Whether the ATR is a contact card's (no contactless reader built it).
    public var isContact: Bool {
        if case .contact = self { return true }
        return false
    }

    /// The registered application provider identifier of the PC/SC workgroup, which marks a
    /// storage-card ATR.
    static let pcscRID: [UInt8] = [0xA0, 0x00, 0x00, 0x03, 0x06]

    /// Parses an ATR (ISO/IEC 7816-3 §8.2: TS, T0, interface bytes, historical bytes, TCK).
    public init(atr: [UInt8]) throws(TransportError) {
        let historical = try Self.historicalBytes(of: atr)
        if historical.count >= 11, historical[0] == 0x80, historical[1] == 0x4F, historical[2] >= 0x0C,
            Array(historical[3..<8]) == Self.pcscRID
        {
            self = .storage(standard: historical[8], cardName: UInt16(historical[9]) << 8 | UInt16(historical[10]))
        } else if atr.count >= 4, atr[1] & 0xF0 == 0x80, atr[2] == 0x80, atr[3] == 0x01 {
            // `3B 8n 80 01`: TD1 = T=0 with TD2 following, TD2 = T=1 and nothing else (§3.1.3.2.3.2).
            self = .isoDEP(historicalBytes: historical)
        } else {
            self = .contact(historicalBytes: historical)
        }
    }

    /// The historical bytes of an ATR, checking its structure and TCK.
    public static func historicalBytes(of atr: [UInt8]) throws(TransportError) -> [UInt8] {
        func bad(_ what: String) -> TransportError {
            TransportError(.protocolViolation, "ATR \(Hex.encode(atr)): \(what)")
        }
        guard atr.count >= 2 else { throw bad("shorter than TS and T0") }
        guard atr[0] == 0x3B || atr[0] == 0x3F else { throw bad("TS is not 3B or 3F") }
        let historicalCount = Int(atr[1] & 0x0F)
        var index = 2
        var present = atr[1] >> 4
        var needsTCK = false
        while true {
            // TAi, TBi, TCi as announced; TDi announces the next group and a protocol T.
            index += Int((present & 1) + (present >> 1 & 1) + (present >> 2 & 1))
            guard present & 0x8 != 0 else { break }
            guard index < atr.count else { throw bad("interface bytes run past the end at byte \(index)") }
            let td = atr[index]
            index += 1
            if td & 0x0F != 0 { needsTCK = true }  // ISO/IEC 7816-3 §8.2.5: TCK unless only T=0
            present = td >> 4
        }
        guard index + historicalCount <= atr.count else {
            throw bad("\(historicalCount) historical bytes announced, \(max(0, atr.count - index)) present")
        }
        let historical = Array(atr[index..<(index + historicalCount)])
        let end = index + historicalCount
        if needsTCK {
            guard end < atr.count else { throw bad("TCK missing") }
            var check: UInt8 = 0
            for byte in atr[1...end] { check ^= byte }
            guard check == 0 else { throw bad("TCK does not match") }
        }
        return historical
    }
}
