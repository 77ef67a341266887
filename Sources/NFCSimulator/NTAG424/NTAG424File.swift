/// One of an NTAG 424 DNA's three standard data files and its settings.
///
/// NTAG 424 DNA data sheet (NT4H2421Gx, rev. 3.0) §8.2.2 and §10.7: file `01` is the capability
/// container (ISO FID `E103`, 32 bytes), `02` the NDEF file (`E104`, 256 bytes), `03` a
/// proprietary file (`E105`, 128 bytes); each has a communication mode, four access conditions
/// and, on file `02`, optional Secure Dynamic Messaging (SDM).
public struct NTAG424File: Sendable, Hashable {
    /// How a file's data travels once a key grants access (data sheet §9.1.4, FileOption bits 1–0).
    public enum CommunicationMode: UInt8, Sendable, Hashable, Codable {
        /// In the clear (`00`, and the RFU value `10`, which the chip reads as plain).
        case plain = 0
        /// In the clear with an 8-byte MAC (`01`).
        case mac = 1
        /// Encrypted and MACed (`11`).
        case full = 3

        /// The mode bits 1–0 of FileOption stand for.
        init(bits: UInt8) {
            switch bits & 0x03 {
            case 0x01: self = .mac
            case 0x03: self = .full
            default: self = .plain
            }
        }
    }

    /// Who may do what (data sheet §8.2.3.3): each a key number `0`–`4`, `E` (free) or `F` (never).
    public struct AccessRights: Sendable, Hashable {
        /// Read.
        public var read: UInt8
        /// Write.
        public var write: UInt8
        /// Read and write.
        public var readWrite: UInt8
        /// Change the file's settings.
        public var change: UInt8

        /// Access rights from their four conditions.
        public init(read: UInt8, write: UInt8, readWrite: UInt8, change: UInt8) {
            self.read = read
            self.write = write
            self.readWrite = readWrite
            self.change = change
        }

        /// The two bytes as the chip sends them: `RW | Change`, then `Read | Write`.
        public var bytes: [UInt8] { [readWrite << 4 | change, read << 4 | write] }

        /// Reads the two bytes; `nil` for a condition that is neither a key `0`–`4`, `E` nor `F`.
        public init?(bytes: ArraySlice<UInt8>) {
            guard bytes.count == 2 else { return nil }
            let first = bytes[bytes.startIndex]
            let second = bytes[bytes.startIndex + 1]
            self.init(read: second >> 4, write: second & 0x0F, readWrite: first >> 4, change: first & 0x0F)
            guard [read, write, readWrite, change].allSatisfy(NTAG424File.isCondition) else { return nil }
        }
    }

    /// The file number the native commands use (`01`–`03`).
    public var number: UInt8
    /// The ISO/IEC 7816-4 file identifier (`E103`–`E105`).
    public var isoID: UInt16
    /// Plain, MAC or full.
    public var mode: CommunicationMode
    /// The four access conditions.
    public var access: AccessRights
    /// SDM settings when SDM is enabled (FileOption bit 6), else `nil`.
    public var sdm: NTAG424SDM?
    /// The file's bytes; the size is fixed.
    public var contents: [UInt8]
    /// SDMReadCtr, 24 bits (data sheet §9.3.1), kept while SDM is disabled.
    public var readCounter: UInt32

    /// A file from its parts.
    public init(
        number: UInt8, isoID: UInt16, mode: CommunicationMode, access: AccessRights, sdm: NTAG424SDM? = nil,
        contents: [UInt8], readCounter: UInt32 = 0
    ) {
        self.number = number
        self.isoID = isoID
        self.mode = mode
        self.access = access
        self.sdm = sdm
        self.contents = contents
        self.readCounter = readCounter
    }

    /// Whether a nibble is a valid access condition.
    static func isCondition(_ value: UInt8) -> Bool { value <= 4 || value == 0x0E || value == 0x0F }

    /// FileOption: mode in bits 1–0, SDM enabled in bit 6.
    var fileOption: UInt8 { mode.rawValue | (sdm == nil ? 0 : 0x40) }

    /// The answer to GetFileSettings (data sheet §10.7.2): FileType `00` (standard data),
    /// FileOption, access rights, the size in 3 bytes least significant first, then the SDM part.
    var settingsBytes: [UInt8] {
        var bytes: [UInt8] = [0x00, fileOption] + access.bytes + NTAG424File.threeBytes(contents.count)
        if let sdm { bytes += sdm.bytes }
        return bytes
    }

    /// A length or offset as 3 bytes, least significant first.
    static func threeBytes(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value >> 16)]
    }

    /// 3 bytes, least significant first, as a number.
    static func number(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}
