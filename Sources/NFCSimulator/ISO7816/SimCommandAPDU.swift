/// A command APDU as a simulated card receives it: header, command data and Ne.
///
/// The simulator's own minimal reading of ISO/IEC 7816-4:2013 §5.1 (kept apart from the
/// `ISO7816` module so the simulator stays an independent reading of the specs). Parsing never
/// traps: bytes that match none of the four cases throw ``SimAPDUError``, which a card answers
/// with `6700`.
public struct SimCommandAPDU: Sendable, Hashable, CustomStringConvertible {
    /// The class byte.
    public var cla: UInt8
    /// The instruction byte.
    public var ins: UInt8
    /// The first parameter byte.
    public var p1: UInt8
    /// The second parameter byte.
    public var p2: UInt8
    /// The command data field (Nc bytes; empty when there is no Lc field).
    public var data: [UInt8]
    /// Ne, the most response data the reader accepts; `nil` when the Le field is absent.
    ///
    /// A short Le of `00` means 256, an extended Le of `0000` means 65 536 (§5.1).
    public var ne: Int?
    /// Whether the length fields use the extended (three-byte Lc / two- or three-byte Le) form.
    public var isExtended: Bool

    /// Makes a command; `isExtended` defaults to what the lengths need.
    public init(cla: UInt8, ins: UInt8, p1: UInt8, p2: UInt8, data: [UInt8] = [], ne: Int? = nil, isExtended: Bool? = nil) {
        self.cla = cla
        self.ins = ins
        self.p1 = p1
        self.p2 = p2
        self.data = data
        self.ne = ne
        self.isExtended = isExtended ?? (data.count > 255 || (ne ?? 0) > 256)
    }

    /// Parses a command APDU (ISO/IEC 7816-4:2013 §5.1, cases 1, 2S, 3S, 4S, 2E, 3E, 4E).
    ///
    /// - Throws: ``SimAPDUError`` when the length is below four bytes or the length fields do not
    ///   agree with the number of bytes.
    public init(bytes: [UInt8]) throws(SimAPDUError) {
        guard bytes.count >= 4 else { throw .tooShort(bytes.count) }
        cla = bytes[0]
        ins = bytes[1]
        p1 = bytes[2]
        p2 = bytes[3]
        let body = bytes.count - 4
        data = []
        ne = nil
        isExtended = false
        if body == 0 { return }  // case 1
        let b1 = Int(bytes[4])
        if body == 1 {  // case 2S
            ne = b1 == 0 ? 256 : b1
            return
        }
        if b1 != 0 {
            if body == 1 + b1 {  // case 3S
                data = Array(bytes[5..<(5 + b1)])
                return
            }
            if body == 2 + b1 {  // case 4S
                data = Array(bytes[5..<(5 + b1)])
                let le = Int(bytes[5 + b1])
                ne = le == 0 ? 256 : le
                return
            }
            throw .lengthMismatch(bytes.count)
        }
        // B1 = 00 and more bytes follow: an extended length field.
        guard body >= 3 else { throw .lengthMismatch(bytes.count) }
        isExtended = true
        let b23 = Int(bytes[5]) << 8 | Int(bytes[6])
        if body == 3 {  // case 2E
            ne = b23 == 0 ? 65_536 : b23
            return
        }
        guard b23 != 0 else { throw .lengthMismatch(bytes.count) }
        if body == 3 + b23 {  // case 3E
            data = Array(bytes[7..<(7 + b23)])
            return
        }
        if body == 5 + b23 {  // case 4E
            data = Array(bytes[7..<(7 + b23)])
            let le = Int(bytes[7 + b23]) << 8 | Int(bytes[8 + b23])
            ne = le == 0 ? 65_536 : le
            return
        }
        throw .lengthMismatch(bytes.count)
    }

    /// The encoded command (the inverse of ``init(bytes:)``).
    ///
    /// Lengths beyond a field's range are clamped: Nc to 65 535 bytes, Ne to 65 536.
    public var bytes: [UInt8] {
        var out: [UInt8] = [cla, ins, p1, p2]
        let nc = min(data.count, 65_535)
        if isExtended {
            if nc > 0 {
                out += [0x00, UInt8(truncatingIfNeeded: nc >> 8), UInt8(truncatingIfNeeded: nc)]
                out += data.prefix(nc)
            }
            if let ne {
                let clamped = min(max(ne, 1), 65_536)
                let le = clamped == 65_536 ? 0 : clamped
                if nc == 0 { out.append(0x00) }
                out += [UInt8(truncatingIfNeeded: le >> 8), UInt8(truncatingIfNeeded: le)]
            }
        } else {
            if nc > 0 {
                out.append(UInt8(truncatingIfNeeded: nc))
                out += data.prefix(nc)
            }
            if let ne {
                let le = min(max(ne, 1), 256)
                out.append(le == 256 ? 0x00 : UInt8(truncatingIfNeeded: le))
            }
        }
        return out
    }

    /// Whether the Le field asked for the maximum (`00` short, `0000` extended).
    public var asksForMaximum: Bool {
        guard let ne else { return false }
        return ne == (isExtended ? 65_536 : 256)
    }

    /// Which of the seven cases of ISO/IEC 7816-4 §5.1 the command is, e.g. `4E`.
    public var caseName: String {
        let number = data.isEmpty ? (ne == nil ? 1 : 2) : (ne == nil ? 3 : 4)
        if number == 1 { return "1" }
        return "\(number)\(isExtended ? "E" : "S")"
    }

    /// The header bytes in hex, then Nc and Ne when present, e.g. `CLA=00 INS=B0 P1=00 P2=00 Ne=256`.
    public var description: String {
        var text = "CLA=\(hex(cla)) INS=\(hex(ins)) P1=\(hex(p1)) P2=\(hex(p2))"
        if !data.isEmpty { text += " Nc=\(data.count)" }
        if let ne { text += " Ne=\(ne)" }
        return text
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}

/// Why bytes are not a command APDU (ISO/IEC 7816-4:2013 §5.1).
public struct SimAPDUError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable, comparable value.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable name.
        public let name: String
        private init(_ name: String) { self.name = name }
        /// The stable name, e.g. `tooShort`.
        public var description: String { name }

        /// Fewer than the four header bytes.
        public static let tooShort = Code("tooShort")
        /// The Lc/Le fields do not account for the number of bytes.
        public static let lengthMismatch = Code("lengthMismatch")
    }

    /// What went wrong.
    public let code: Code
    /// The length of the command APDU.
    public let length: Int

    /// Fewer than the four header bytes.
    public static func tooShort(_ length: Int) -> SimAPDUError { SimAPDUError(code: .tooShort, length: length) }
    /// The Lc/Le fields do not account for `length` bytes.
    public static func lengthMismatch(_ length: Int) -> SimAPDUError { SimAPDUError(code: .lengthMismatch, length: length) }

    /// A sentence giving the APDU's length and what is wrong with it.
    public var description: String {
        code == .tooShort
            ? "command APDU of \(length) bytes is shorter than its 4-byte header"
            : "command APDU of \(length) bytes does not match its length fields"
    }
}
