import NFCTransport

/// The NFC Forum tag type an engine handles.
public enum TagFamily: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// NFC Forum Type 1 (Topaz 96 and 512): ISO/IEC 14443-3 A without anticollision, RID and UID echo.
    case type1
    /// NFC Forum Type 2 (NTAG21x, MIFARE Ultralight): ISO/IEC 14443-3 A without ISO-DEP.
    case type2
    /// NFC Forum Type 3 (FeliCa).
    case type3
    /// NFC Forum Type 4 (ISO-DEP, the NDEF application).
    case type4
    /// NFC Forum Type 5 (ISO/IEC 15693).
    case type5

    /// The raw value: `type1`, `type2`, `type3`, `type4` or `type5`.
    public var description: String { rawValue }

    /// The family a target belongs to, from its activation data.
    public init(_ target: TargetInfo) {
        switch target.parameters {
        case .iso14443A(let a): self = a.ats != nil ? .type4 : a.isType1Platform ? .type1 : .type2
        case .iso14443B: self = .type4
        case .iso15693: self = .type5
        case .felica: self = .type3
        }
    }
}

/// What an engine learned about a tag: its model and memory.
public struct TagIdentity: Sendable, Hashable {
    /// The NFC Forum tag type the tag was handled as.
    public var family: TagFamily
    /// The chip, as precisely as the tag tells (`NTAG216`, `MIFARE Ultralight EV1 (MF0UL21)`,
    /// `ICODE SLIX2`, `FeliCa Lite-S`, `ISO-DEP card`).
    public var model: String
    /// Total memory in bytes, when known.
    public var memorySize: Int?
    /// Family-specific facts for people (`"version": "0004040201001303"`, `"blocks": "80 × 4"`…),
    /// in a fixed order.
    public var details: [(String, String)]

    /// An identity; the memory size defaults to unknown (`nil`) and the details to none.
    public init(family: TagFamily, model: String, memorySize: Int? = nil, details: [(String, String)] = []) {
        self.family = family
        self.model = model
        self.memorySize = memorySize
        self.details = details
    }

    /// Whether family, model, memory size and details (keys and values, in order) are all equal.
    public static func == (lhs: TagIdentity, rhs: TagIdentity) -> Bool {
        lhs.family == rhs.family && lhs.model == rhs.model && lhs.memorySize == rhs.memorySize
            && lhs.details.map(\.0) == rhs.details.map(\.0) && lhs.details.map(\.1) == rhs.details.map(\.1)
    }

    /// Hashes the family, model and memory size; the details are left out.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(family)
        hasher.combine(model)
        hasher.combine(memorySize)
    }
}

/// NDEF operations on one tag family: the common face of the Type 1, 2, 3, 4 and 5 engines.
///
/// Each call runs state-machine operations over the connection (``TagOperationRunner``); the
/// engines size every command from `connection.limits` to use the fewest, largest exchanges.
/// Writes are tearing-safe: an interrupted write leaves the old message, the new one, or an
/// empty NDEF — never a corrupt message that reads as valid.
public protocol NDEFTagEngine: Sendable {
    /// The family this engine handles.
    static var family: TagFamily { get }

    /// Identifies the chip and its memory.
    func identify(on connection: any TagConnection) async throws(TagEngineError) -> TagIdentity

    /// The NDEF status and capacity, as Core NFC's `queryNDEFStatus` reports them.
    func queryStatus(on connection: any TagConnection) async throws(TagEngineError) -> NDEFStatus

    /// Reads the NDEF message (empty for an empty tag).
    /// - Throws: `.notFormatted` when the tag has no NDEF.
    func readNDEF(on connection: any TagConnection) async throws(TagEngineError) -> NDEFReadResult

    /// Writes an encoded NDEF message, skipping pages/blocks that already hold the wanted bytes.
    /// - Throws: `.readOnly`, `.capacityExceeded`, `.notFormatted`.
    func writeNDEF(_ message: [UInt8], on connection: any TagConnection) async throws(TagEngineError)

    /// Formats a blank tag for NDEF (empty message).
    /// - Throws: `.alreadyFormatted` when it holds a valid CC, `.unsupported` when the tag cannot be formatted.
    func format(on connection: any TagConnection) async throws(TagEngineError)

    /// Makes the tag permanently read-only (lock bits, CC, attribute block, CC write access).
    func makeReadOnly(on connection: any TagConnection) async throws(TagEngineError)

    /// The tag's raw memory, for `nfc dump` (pages, blocks, files), as (address label, bytes) rows.
    func dump(on connection: any TagConnection) async throws(TagEngineError) -> [(String, [UInt8])]

    /// The dump and the spans the tag refused (``TagMemoryDump``), for a result that says it is partial.
    func memoryDump(on connection: any TagConnection) async throws(TagEngineError) -> TagMemoryDump
}
