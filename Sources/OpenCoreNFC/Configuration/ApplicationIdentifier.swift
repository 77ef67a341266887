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

/// The EMV payment applications that Core NFC does not let an app select.
///
/// Core NFC has refused payment-related AIDs in `NFCTagReaderSession` since ISO 7816 support
/// arrived in iOS 13 (Apple's Core NFC overview of that era; reported back by
/// revtel/react-native-nfc-manager#265, and reading bank cards is what the EU-only
/// `NFCPaymentTagReaderSession` of iOS 26 is for). The families refused here:
///
/// - the payment schemes' RIDs, each a 5-byte prefix of every AID of that scheme (the EMV
///   application-selection AID table: Visa `A0000000031010`, Mastercard `A0000000041010`,
///   American Express `A00000002501`, JCB `A0000000651010`, Diners Club/Discover
///   `A0000001523010`, UnionPay `A000000333010101`);
/// - the two payment-system directories a terminal selects first: `1PAY.SYS.DDF01`, the Payment
///   System Environment of contact cards (EMV Book 1, application selection), and
///   `2PAY.SYS.DDF01`, the Proximity Payment System Environment of contactless cards (EMV
///   Contactless Book B, Entry Point).
enum PaymentApplicationIdentifiers {
    /// A payment scheme and its registered application provider identifier.
    struct Scheme: Sendable {
        let name: String
        let rid: [UInt8]
    }

    /// The payment schemes' RIDs (ISO/IEC 7816-5 registrations).
    static let schemes: [Scheme] = [
        Scheme(name: "Visa", rid: [0xA0, 0x00, 0x00, 0x00, 0x03]),
        Scheme(name: "Mastercard", rid: [0xA0, 0x00, 0x00, 0x00, 0x04]),
        Scheme(name: "American Express", rid: [0xA0, 0x00, 0x00, 0x00, 0x25]),
        Scheme(name: "JCB", rid: [0xA0, 0x00, 0x00, 0x00, 0x65]),
        Scheme(name: "Diners Club/Discover", rid: [0xA0, 0x00, 0x00, 0x01, 0x52]),
        Scheme(name: "UnionPay", rid: [0xA0, 0x00, 0x00, 0x03, 0x33]),
    ]

    /// The payment-system directory names, as DF names in ASCII.
    static let directories: [(name: String, bytes: [UInt8])] = [
        ("1PAY.SYS.DDF01 (Payment System Environment)", Array("1PAY.SYS.DDF01".utf8)),
        ("2PAY.SYS.DDF01 (Proximity Payment System Environment)", Array("2PAY.SYS.DDF01".utf8)),
    ]

    /// What payment application `aid` would select, or nil when it selects none.
    ///
    /// An AID that starts with a scheme's RID belongs to that scheme. ISO/IEC 7816-4 lets a SELECT
    /// by DF name give a right-truncated name, so an identifier that is a leading part of a
    /// directory name, or starts with one, counts as that directory.
    static func paymentApplication(_ aid: [UInt8]) -> String? {
        for scheme in schemes where aid.starts(with: scheme.rid) { return scheme.name }
        for directory in directories where aid.starts(with: directory.bytes) || directory.bytes.starts(with: aid) {
            return directory.name
        }
        return nil
    }
}

/// Parsing the FeliCa system codes an Info.plist declares.
enum FeliCaSystemCode {
    /// The wildcard system code, which matches any card in a FeliCa polling command (JIS X 6319-4);
    /// Apple's reference for the system-codes key does not allow it.
    static let wildcard: UInt16 = 0xFFFF

    /// The system code a declared string names: exactly 4 hex digits, either case; nil otherwise.
    static func parse(_ text: String) -> UInt16? {
        let digits = Array(text.utf8)
        guard digits.count == 4 else { return nil }
        var value: UInt16 = 0
        for c in digits {
            guard let nibble = ApplicationIdentifier.hexValue(c) else { return nil }
            value = value << 4 | UInt16(nibble)
        }
        return value
    }
}
