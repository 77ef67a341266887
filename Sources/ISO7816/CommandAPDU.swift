/// A command APDU: header, optional data field, optional expected response length.
///
/// ISO/IEC 7816-4:2020 §5.1 and Table 1: the four cases, each in short form (Lc and Le of one
/// byte, Le `00` meaning 256) or extended form (a `00` marker, Lc and Le of two bytes, Le `0000`
/// meaning 65 536).
public struct CommandAPDU: Sendable, Hashable, CustomStringConvertible {
    /// CLA, the class byte (`00` by default; bit 5, `10`, marks every command of a chain but the last).
    public var cla: UInt8
    /// INS, the instruction byte (`A4` SELECT, `B0` READ BINARY, `C0` GET RESPONSE…).
    public var ins: UInt8
    /// P1, the first parameter byte.
    public var p1: UInt8
    /// P2, the second parameter byte.
    public var p2: UInt8
    /// The command data field (Nc = `data.count`, at most 65 535 bytes).
    public var data: [UInt8]
    /// Ne, the most bytes expected in the response data field (1…65 536), or `nil` for none.
    public var expectedLength: Int?

    /// The largest Ne of a short APDU.
    public static let maximumShortExpectedLength = 256
    /// The largest Ne of an extended APDU.
    public static let maximumExtendedExpectedLength = 65_536

    /// A command from its fields: CLA, P1 and P2 default to `00`, the data field to empty and Ne to
    /// none. Lengths are checked only by ``encoded(extended:)``.
    public init(cla: UInt8 = 0x00, ins: UInt8, p1: UInt8 = 0, p2: UInt8 = 0, data: [UInt8] = [], expectedLength: Int? = nil) {
        self.cla = cla
        self.ins = ins
        self.p1 = p1
        self.p2 = p2
        self.data = data
        self.expectedLength = expectedLength
    }

    /// Whether the APDU needs the extended length form (Nc over 255 or Ne over 256).
    public var needsExtendedLength: Bool {
        data.count > 255 || (expectedLength ?? 0) > Self.maximumShortExpectedLength
    }

    /// Parses an APDU in any of the cases 1, 2S, 3S, 4S, 2E, 3E, 4E.
    /// - Throws: ``APDUError`` `.truncated` under 4 bytes, `.invalidLength` when Lc or Le
    ///   disagree with the bytes present.
    public init(parsing bytes: [UInt8]) throws(APDUError) {
        guard bytes.count >= 4 else {
            throw APDUError(.truncated, at: bytes.count, "a command APDU has at least 4 bytes, got \(bytes.count)")
        }
        self.init(cla: bytes[0], ins: bytes[1], p1: bytes[2], p2: bytes[3])
        let body = bytes.count - 4
        if body == 0 { return }  // case 1
        let b1 = Int(bytes[4])
        if body == 1 {  // case 2S
            expectedLength = b1 == 0 ? 256 : b1
            return
        }
        if b1 != 0 {  // short Lc
            if body == 1 + b1 {  // case 3S
                data = Array(bytes[5..<5 + b1])
                return
            }
            if body == 2 + b1 {  // case 4S
                data = Array(bytes[5..<5 + b1])
                let le = Int(bytes[5 + b1])
                expectedLength = le == 0 ? 256 : le
                return
            }
            throw APDUError(.invalidLength, at: 4, "Lc = \(b1) but \(body - 1) bytes follow it")
        }
        // Extended: 00 marker then two length bytes.
        guard body >= 3 else {
            throw APDUError(
                .invalidLength, at: 4, "a 00 byte after the header starts an extended length, but only \(body) bytes follow the header")
        }
        let b23 = Int(bytes[5]) << 8 | Int(bytes[6])
        if body == 3 {  // case 2E
            expectedLength = b23 == 0 ? 65_536 : b23
            return
        }
        guard b23 != 0 else {
            throw APDUError(.invalidLength, at: 5, "extended Lc of 0")
        }
        if body == 3 + b23 {  // case 3E
            data = Array(bytes[7..<7 + b23])
            return
        }
        if body == 5 + b23 {  // case 4E
            data = Array(bytes[7..<7 + b23])
            let le = Int(bytes[7 + b23]) << 8 | Int(bytes[8 + b23])
            expectedLength = le == 0 ? 65_536 : le
            return
        }
        throw APDUError(.invalidLength, at: 5, "extended Lc = \(b23) but \(body - 3) bytes follow it")
    }

    /// Encodes the APDU, in short form when it fits unless `extended` is forced.
    /// - Throws: ``APDUError`` `.valueOutOfRange` when Nc or Ne exceed what any form carries.
    public func encoded(extended forceExtended: Bool = false) throws(APDUError) -> [UInt8] {
        guard data.count <= 65_535 else {
            throw APDUError(.valueOutOfRange, "a data field of \(data.count) bytes exceeds 65 535")
        }
        if let expectedLength, !(1...Self.maximumExtendedExpectedLength).contains(expectedLength) {
            throw APDUError(.valueOutOfRange, "Ne = \(expectedLength) is outside 1…65 536")
        }
        var out: [UInt8] = [cla, ins, p1, p2]
        out.reserveCapacity(9 + data.count)
        if !(forceExtended || needsExtendedLength) {
            if !data.isEmpty {
                out.append(UInt8(data.count))
                out.append(contentsOf: data)
            }
            if let expectedLength { out.append(UInt8(truncatingIfNeeded: expectedLength)) }  // 256 → 00
            return out
        }
        if data.isEmpty && expectedLength == nil { return out }  // case 1 has no extended form
        out.append(0x00)
        if !data.isEmpty {
            out.append(UInt8(data.count >> 8))
            out.append(UInt8(data.count & 0xFF))
            out.append(contentsOf: data)
        }
        if let expectedLength {
            let le = expectedLength == 65_536 ? 0 : expectedLength
            out.append(UInt8(le >> 8))
            out.append(UInt8(le & 0xFF))
        }
        return out
    }

    /// The header in hex, then the data length and bytes and Ne when present:
    /// `00A40400 [7] D2760000850101 Ne=256`.
    public var description: String {
        let hex = { (bytes: [UInt8]) in
            bytes.map { b in
                String(b, radix: 16, uppercase: true).count == 1
                    ? "0" + String(b, radix: 16, uppercase: true) : String(b, radix: 16, uppercase: true)
            }.joined()
        }
        var text = hex([cla, ins, p1, p2])
        if !data.isEmpty { text += " [\(data.count)] " + hex(data) }
        if let expectedLength { text += " Ne=\(expectedLength)" }
        return text
    }
}
