/// The request flags byte of an ISO 15693 command, as Core NFC's `NFCISO15693RequestFlag`.
///
/// Bit 3 (Inventory) is absent: Core NFC never sends inventory requests from an app.
/// ISO/IEC 15693-3 §7.3.1, Tables 3 and 5.
@available(iOS 11.0, *)
public struct NFCISO15693RequestFlag: OptionSet, Hashable, Sendable {
    /// The flags byte as sent, bit 1 the least significant.
    public let rawValue: UInt8

    /// Makes flags from the byte. Bits are sent as given; tags add or remove only the address flag.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Bit 1: the tag answers on two subcarriers.
    public static let dualSubCarriers = NFCISO15693RequestFlag(rawValue: 1 << 0)
    /// Bit 2: the tag answers at the high data rate.
    public static let highDataRate = NFCISO15693RequestFlag(rawValue: 1 << 1)
    /// Bit 4: the command uses the protocol format extension.
    public static let protocolExtension = NFCISO15693RequestFlag(rawValue: 1 << 3)
    /// Bit 5: only the tag in the selected state executes the command.
    public static let select = NFCISO15693RequestFlag(rawValue: 1 << 4)
    /// Bit 6: the command carries the UID of the tag that should execute it.
    public static let address = NFCISO15693RequestFlag(rawValue: 1 << 5)
    /// Bit 7: the command-defined option (for reads, return the block security status).
    public static let option = NFCISO15693RequestFlag(rawValue: 1 << 6)
    /// Bit 8: meaning defined by the command (reserved for future use by most).
    @available(iOS 14.0, *)
    public static let commandSpecificBit8 = NFCISO15693RequestFlag(rawValue: 1 << 7)
}

// MARK: - The iOS 11 to 13 spellings

@available(iOS 11.0, *)
extension NFCISO15693RequestFlag {
    /// The iOS 11–13 spelling of ``dualSubCarriers``; deprecated.
    @available(*, deprecated, renamed: "NFCISO15693RequestFlag.dualSubCarriers")
    public static var RequestFlagDualSubCarriers: NFCISO15693RequestFlag { .dualSubCarriers }
    /// The iOS 11–13 spelling of ``highDataRate``; deprecated.
    @available(*, deprecated, renamed: "NFCISO15693RequestFlag.highDataRate")
    public static var RequestFlagHighDataRate: NFCISO15693RequestFlag { .highDataRate }
    /// The iOS 11–13 spelling of ``protocolExtension``; deprecated.
    @available(*, deprecated, renamed: "NFCISO15693RequestFlag.protocolExtension")
    public static var RequestFlagProtocolExtension: NFCISO15693RequestFlag { .protocolExtension }
    /// The iOS 11–13 spelling of ``select``; deprecated.
    @available(*, deprecated, renamed: "NFCISO15693RequestFlag.select")
    public static var RequestFlagSelect: NFCISO15693RequestFlag { .select }
    /// The iOS 11–13 spelling of ``address``; deprecated.
    @available(*, deprecated, renamed: "NFCISO15693RequestFlag.address")
    public static var RequestFlagAddress: NFCISO15693RequestFlag { .address }
    /// The iOS 11–13 spelling of ``option``; deprecated.
    @available(*, deprecated, renamed: "NFCISO15693RequestFlag.option")
    public static var RequestFlagOption: NFCISO15693RequestFlag { .option }
}

/// The iOS 11 to 13 name of ``NFCISO15693RequestFlag``; Core NFC's Swift interface keeps it
/// undeprecated.
@available(iOS 11.0, *)
public typealias RequestFlag = NFCISO15693RequestFlag
