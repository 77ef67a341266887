/// Parsing and classifying the ISO 7816 application identifiers (AIDs) an Info.plist declares.
///
/// An AID is 5 to 16 bytes: a 5-byte registered application provider identifier (RID) and up to
/// 11 bytes of proprietary extension (PIX), as ISO/IEC 7816-5 registers them. In the Info.plist
/// each is written as hex digits, two per byte (Apple's examples: `D2760000850101`, `A000000308`).
enum ApplicationIdentifier {
    /// Why a declared identifier is not a usable AID.
    enum Malformation: Error, Hashable, Sendable {
        /// A character that is not a hex digit.
        case notHex
        /// An odd number of hex digits.
        case oddLength(digits: Int)
        /// A byte count outside 5…16.
        case badLength(bytes: Int)

        var reason: String {
            switch self {
            case .notHex: return "is not hexadecimal (only the digits 0-9 and A-F are allowed, without spaces or 0x)"
            case .oddLength(let digits): return "has an odd number of hex digits (\(digits))"
            case .badLength(let bytes): return "is \(bytes) byte\(bytes == 1 ? "" : "s") long; an AID is 5 to 16 bytes"
            }
        }
    }

    /// The lengths an AID may have, in bytes (ISO/IEC 7816-5: RID of 5, PIX of up to 11).
    static let validLengths = 5...16

    /// Parses a declared identifier strictly: hex digits only (either case), even count, 5–16 bytes.
    static func parse(_ text: String) throws(Malformation) -> [UInt8] {
        let digits = Array(text.utf8)
        var nibbles: [UInt8] = []
        nibbles.reserveCapacity(digits.count)
        for c in digits {
            guard let nibble = hexValue(c) else { throw .notHex }
            nibbles.append(nibble)
        }
        guard nibbles.count % 2 == 0 else { throw .oddLength(digits: nibbles.count) }
        let bytes = stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
        guard validLengths.contains(bytes.count) else { throw .badLength(bytes: bytes.count) }
        return bytes
    }

    /// The value of one ASCII hex digit.
    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
