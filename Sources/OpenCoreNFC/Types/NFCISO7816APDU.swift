import Foundation

/// A command APDU for an ISO 7816 tag, as Core NFC's `NFCISO7816APDU`.
///
/// Made from its fields, it is written in the shortest form that holds them (short when the data
/// has at most 255 bytes and at most 256 bytes are expected, extended otherwise). Parsed from
/// bytes with ``init(data:)``, it is sent exactly as given, which keeps the caller's choice of
/// form. Equality is identity, as for Apple's class. ISO/IEC 7816-4 §5.1.
@available(iOS 13.0, *)
open class NFCISO7816APDU: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: every stored property is an immutable `let` of a Sendable type.

    /// The class byte (CLA).
    public let instructionClass: UInt8
    /// The instruction byte (INS).
    public let instructionCode: UInt8
    /// The first parameter byte (P1).
    public let p1Parameter: UInt8
    /// The second parameter byte (P2).
    public let p2Parameter: UInt8
    /// The command data field, or nil when the command carries no data.
    public let data: Data?
    /// Ne, the most response bytes expected: 1…65 536, or -1 when the command has no Le field.
    public let expectedResponseLength: Int

    /// The bytes given to ``init(data:)``; nil for an APDU made from its fields.
    private let parsedBytes: Data?

    /// Creates a command from its fields; Lc follows from the size of `data`.
    ///
    /// - Parameters:
    ///   - instructionClass: CLA.
    ///   - instructionCode: INS.
    ///   - p1Parameter: P1.
    ///   - p2Parameter: P2.
    ///   - data: The data field; empty for none. At most 65 535 bytes can be sent.
    ///   - expectedResponseLength: Ne: 1…65 536, or -1 for no Le field. 256 is written as the
    ///     short Le `00` and 65 536 as the extended Le `0000`.
    public init(
        instructionClass: UInt8, instructionCode: UInt8, p1Parameter: UInt8, p2Parameter: UInt8,
        data: Data, expectedResponseLength: Int
    ) {
        self.instructionClass = instructionClass
        self.instructionCode = instructionCode
        self.p1Parameter = p1Parameter
        self.p2Parameter = p2Parameter
        self.data = data.isEmpty ? nil : Data(data)
        self.expectedResponseLength = expectedResponseLength
        self.parsedBytes = nil
        super.init()
    }

    /// Parses a whole command APDU in any of the cases 1, 2S, 3S, 4S, 2E, 3E and 4E.
    ///
    /// Returns nil when the bytes are not a well-formed APDU: fewer than 4 bytes, an Lc that
    /// disagrees with the bytes present, or a body that fits no case. ISO/IEC 7816-4 §5.1.
    public init?(data: Data) {
        let bytes = [UInt8](data)
        guard let fields = NFCISO7816APDU.parse(bytes) else { return nil }
        self.instructionClass = bytes[0]
        self.instructionCode = bytes[1]
        self.p1Parameter = bytes[2]
        self.p2Parameter = bytes[3]
        self.data = fields.body.isEmpty ? nil : Data(fields.body)
        self.expectedResponseLength = fields.expectedLength
        self.parsedBytes = Data(bytes)
        super.init()
    }

    /// The bytes to send, or nil when the fields cannot be encoded (more than 65 535 data bytes,
    /// or an expected length above 65 536).
    ///
    /// An expected length below 1 other than -1 is written as "no Le field".
    var encodedBytes: Data? {
        if let parsedBytes { return parsedBytes }
        let body = data ?? Data()
        let hasLe = expectedResponseLength >= 1
        guard body.count <= 0xFFFF, expectedResponseLength <= 65_536 else { return nil }
        var out = Data([instructionClass, instructionCode, p1Parameter, p2Parameter])
        let extended = body.count > 255 || expectedResponseLength > 256
        if !extended {
            if !body.isEmpty {
                out.append(UInt8(body.count))
                out.append(body)
            }
            if hasLe { out.append(UInt8(truncatingIfNeeded: expectedResponseLength)) }  // 256 → 00
            return out
        }
        if !body.isEmpty {
            out.append(contentsOf: [0x00, UInt8(body.count >> 8), UInt8(truncatingIfNeeded: body.count)])
            out.append(body)
        }
        if hasLe {
            if body.isEmpty { out.append(0x00) }  // case 2E: the marker byte stands alone
            let le = expectedResponseLength == 65_536 ? 0 : expectedResponseLength
            out.append(contentsOf: [UInt8(le >> 8), UInt8(truncatingIfNeeded: le)])
        }
        return out
    }

    /// Splits a command APDU's body into the data field and Ne (-1 when absent).
    static func parse(_ bytes: [UInt8]) -> (body: ArraySlice<UInt8>, expectedLength: Int)? {
        guard bytes.count >= 4 else { return nil }
        let bodyLength = bytes.count - 4
        if bodyLength == 0 { return (bytes[4..<4], -1) }  // case 1
        let b1 = Int(bytes[4])
        if bodyLength == 1 { return (bytes[5..<5], b1 == 0 ? 256 : b1) }  // case 2S
        if b1 != 0 {
            if bodyLength == 1 + b1 { return (bytes[5..<5 + b1], -1) }  // case 3S
            if bodyLength == 2 + b1 {  // case 4S
                let le = Int(bytes[5 + b1])
                return (bytes[5..<5 + b1], le == 0 ? 256 : le)
            }
            return nil
        }
        // b1 == 0: extended length
        guard bodyLength >= 3 else { return nil }
        let b23 = Int(bytes[5]) << 8 | Int(bytes[6])
        if bodyLength == 3 { return (bytes[7..<7], b23 == 0 ? 65_536 : b23) }  // case 2E
        guard b23 != 0 else { return nil }
        if bodyLength == 3 + b23 { return (bytes[7..<7 + b23], -1) }  // case 3E
        if bodyLength == 5 + b23 {  // case 4E
            let le = Int(bytes[7 + b23]) << 8 | Int(bytes[8 + b23])
            return (bytes[7..<7 + b23], le == 0 ? 65_536 : le)
        }
        return nil
    }

    // MARK: NSCopying

    open func copy(with zone: NSZone? = nil) -> Any {
        if let parsedBytes, let copy = NFCISO7816APDU(data: parsedBytes) { return copy }
        return NFCISO7816APDU(
            instructionClass: instructionClass, instructionCode: instructionCode, p1Parameter: p1Parameter,
            p2Parameter: p2Parameter, data: data ?? Data(), expectedResponseLength: expectedResponseLength)
    }

    open override var description: String {
        let hex = (encodedBytes ?? Data()).map { String(format: "%02X", $0) }.joined()
        return "NFCISO7816APDU(\(hex.isEmpty ? "unencodable" : hex))"
    }
}
