/// The request flags byte of ISO/IEC 15693-3:2009 §7.3.1 (Tables 3–5).
///
/// Bits 1–4 mean the same in every request; bits 5–8 depend on the inventory flag: without it
/// they are select, address, option and RFU; with it, AFI, number of slots (set = 1 slot),
/// option and RFU.
struct ISO15693RequestFlags: OptionSet, Sendable, Hashable {
    let rawValue: UInt8

    /// Two sub-carriers answer (otherwise one).
    static let subCarrier = ISO15693RequestFlags(rawValue: 0x01)
    /// The tag answers at the high data rate (26.48 kbit/s; otherwise 6.62 kbit/s).
    static let highDataRate = ISO15693RequestFlags(rawValue: 0x02)
    /// The request is an inventory; bits 5–8 take their inventory meaning.
    static let inventory = ISO15693RequestFlags(rawValue: 0x04)
    /// Protocol format extension (RFU in ISO/IEC 15693-3:2019; ignored by both modelled chips).
    static let protocolExtension = ISO15693RequestFlags(rawValue: 0x08)
    /// Only a tag in the Selected state executes the request (no UID in it).
    static let select = ISO15693RequestFlags(rawValue: 0x10)
    /// The request carries the UID of the one tag that shall execute it.
    static let address = ISO15693RequestFlags(rawValue: 0x20)
    /// Command-specific: block security status on reads, answer after the reader's EOF on writes.
    static let option = ISO15693RequestFlags(rawValue: 0x40)

    /// Inventory: an AFI byte follows the command code.
    static let afi = ISO15693RequestFlags(rawValue: 0x10)
    /// Inventory: one slot (otherwise 16).
    static let oneSlot = ISO15693RequestFlags(rawValue: 0x20)
}

/// The error codes of an error response (ISO/IEC 15693-3:2009 §7.4.2, Table 7).
public enum ISO15693ErrorCode: UInt8, Sendable, Hashable, CaseIterable {
    /// The command is not supported: the request code is not recognised.
    case notSupported = 0x01
    /// The command is not recognised, e.g. a format error.
    case notRecognized = 0x02
    /// The command option is not supported.
    case optionNotSupported = 0x03
    /// Error with no information given, or a specific code not supported.
    case unknown = 0x0F
    /// The specified block is not available (does not exist).
    case blockNotAvailable = 0x10
    /// The specified block is already locked and thus cannot be locked again.
    case alreadyLocked = 0x11
    /// The specified block is locked and its content cannot be changed.
    case lockedContent = 0x12
    /// The specified block was not successfully programmed.
    case notProgrammed = 0x13
    /// The specified block was not successfully locked.
    case notLocked = 0x14
}

/// The command codes both chips know, and the ones they reject, from ISO/IEC 15693-3:2009 §10 and, for the extended commands, ISO/IEC 15693-3:2019.
enum ISO15693Command {
    static let inventory: UInt8 = 0x01
    static let stayQuiet: UInt8 = 0x02
    static let readSingleBlock: UInt8 = 0x20
    static let writeSingleBlock: UInt8 = 0x21
    static let lockBlock: UInt8 = 0x22
    static let readMultipleBlocks: UInt8 = 0x23
    static let writeMultipleBlocks: UInt8 = 0x24
    static let select: UInt8 = 0x25
    static let resetToReady: UInt8 = 0x26
    static let writeAFI: UInt8 = 0x27
    static let lockAFI: UInt8 = 0x28
    static let writeDSFID: UInt8 = 0x29
    static let lockDSFID: UInt8 = 0x2A
    static let getSystemInformation: UInt8 = 0x2B
    static let getMultipleBlockSecurityStatus: UInt8 = 0x2C
    static let extendedReadSingleBlock: UInt8 = 0x30
    static let extendedWriteSingleBlock: UInt8 = 0x31
    static let extendedLockBlock: UInt8 = 0x32
    static let extendedReadMultipleBlocks: UInt8 = 0x33
    static let extendedWriteMultipleBlocks: UInt8 = 0x34
    static let extendedGetSystemInformation: UInt8 = 0x3B
    static let extendedGetMultipleBlockSecurityStatus: UInt8 = 0x3C

    /// Custom commands carry the IC manufacturer code after the command code (§10.5).
    static let customRange: ClosedRange<UInt8> = 0xA0...0xDF
    /// Proprietary commands (§10.6), also prefixed with the IC manufacturer code.
    static let proprietaryRange: ClosedRange<UInt8> = 0xE0...0xFF

    /// Whether a command code carries the IC manufacturer code byte.
    static func hasManufacturerCode(_ code: UInt8) -> Bool { code >= customRange.lowerBound }
}

/// One non-inventory request split into its parts (ISO/IEC 15693-3:2009 §7.3).
struct ISO15693Request {
    let flags: ISO15693RequestFlags
    let code: UInt8
    /// The parameters after the command code, IC manufacturer code, request field and UID.
    let parameters: ArraySlice<UInt8>
    /// The byte between the command code and the UID that Extended Get System Information
    /// carries (its parameter request field), when present.
    let leadingParameter: UInt8?
    /// The whole frame, for the air-time model.
    let frame: [UInt8]

    var option: Bool { flags.contains(.option) }
    var addressed: Bool { flags.contains(.address) }

    /// A reader over the parameters.
    var reader: ISO15693ParameterReader { ISO15693ParameterReader(parameters) }
}

/// Reads request parameters without trapping: every read returns `nil` when bytes run out.
struct ISO15693ParameterReader {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    var isAtEnd: Bool { bytes.isEmpty }
    var remaining: Int { bytes.count }

    mutating func byte() -> UInt8? { bytes.popFirst() }

    /// A block number of one byte, or of two bytes least significant first (extended commands).
    mutating func blockNumber(wide: Bool) -> Int? {
        guard let low = byte() else { return nil }
        guard wide else { return Int(low) }
        guard let high = byte() else { return nil }
        return Int(low) | Int(high) << 8
    }

    mutating func bytes(_ count: Int) -> [UInt8]? {
        guard count >= 0, bytes.count >= count else { return nil }
        let taken = Array(bytes.prefix(count))
        bytes = bytes.dropFirst(count)
        return taken
    }
}
