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
