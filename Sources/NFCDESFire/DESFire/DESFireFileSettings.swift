/// A DESFire file's settings as GetFileSettings answers them (MIFARE DESFire EV1 short data sheet
/// §8.3 and §9): its kind with the kind's parameters, the communication mode and the four access
/// conditions.
public struct DESFireFileSettings: Sendable, Hashable {
    /// A file's kind and what GetFileSettings says about it.
    public enum Kind: Sendable, Hashable {
        /// A standard data file (`00`) of a size.
        case standard(size: Int)
        /// A backup data file (`01`) of a size.
        case backup(size: Int)
        /// A value file (`02`): its limits, the LimitedCredit allowance and whether it is enabled.
        case value(lower: Int32, upper: Int32, limitedCredit: Int32, limitedCreditEnabled: Bool)
        /// A linear (`03`) record file.
        case linearRecord(recordSize: Int, maximumRecords: Int, records: Int)
        /// A cyclic (`04`) record file.
        case cyclicRecord(recordSize: Int, maximumRecords: Int, records: Int)

        /// `standard`, `backup`, `value`, `linear-record`, `cyclic-record`.
        public var name: String {
            switch self {
            case .standard: "standard"
            case .backup: "backup"
            case .value: "value"
            case .linearRecord: "linear-record"
            case .cyclicRecord: "cyclic-record"
            }
        }

        /// The byte count of a data file, `nil` for the others.
        public var size: Int? {
            switch self {
            case .standard(let size), .backup(let size): size
            default: nil
            }
        }
    }

    /// The kind.
    public var kind: Kind
    /// Plain, MAC or full.
    public var mode: DESFireCommunicationMode
    /// Read.
    public var read: DESFireAccess
    /// Write.
    public var write: DESFireAccess
    /// Read and write.
    public var readWrite: DESFireAccess
    /// Change these settings.
    public var change: DESFireAccess

    /// Settings from their parts.
    public init(
        kind: Kind, mode: DESFireCommunicationMode, read: DESFireAccess, write: DESFireAccess, readWrite: DESFireAccess,
        change: DESFireAccess
    ) {
        self.kind = kind
        self.mode = mode
        self.read = read
        self.write = write
        self.readWrite = readWrite
        self.change = change
    }

    /// Reads GetFileSettings' answer: FileType, the mode, the access rights (`RW | Change`, `Read
    /// | Write`), then by type the size (3 bytes); the lower limit, upper limit and LimitedCredit
    /// value (4 bytes each) and the LimitedCredit switch; or record size, maximum and current count
    /// (3 bytes each). All least significant byte first.
    /// - Throws: ``DESFireError`` `.malformedResponse` naming what is wrong.
    public init(parsing bytes: [UInt8]) throws(DESFireError) {
        guard bytes.count >= 4 else { throw DESFireError(.malformedResponse, "file settings of \(bytes.count) bytes; at least 4 expected") }
        mode = NTAG424FileSettings.mode(bits: bytes[1])
        guard let read = DESFireAccess(nibble: bytes[3] >> 4), let write = DESFireAccess(nibble: bytes[3] & 0x0F),
            let readWrite = DESFireAccess(nibble: bytes[2] >> 4), let change = DESFireAccess(nibble: bytes[2] & 0x0F)
        else { throw DESFireError(.malformedResponse, "access rights \(DESFireClient.hex(Array(bytes[2..<4]))) are not conditions") }
        (self.read, self.write, self.readWrite, self.change) = (read, write, readWrite, change)
        let rest = Array(bytes[4...])
        func three(_ at: Int) -> Int { Int(rest[at]) | Int(rest[at + 1]) << 8 | Int(rest[at + 2]) << 16 }
        func four(_ at: Int) -> Int32 {
            Int32(bitPattern: UInt32(rest[at]) | UInt32(rest[at + 1]) << 8 | UInt32(rest[at + 2]) << 16 | UInt32(rest[at + 3]) << 24)
        }
        let expected: Int
        switch bytes[0] {
        case 0x00, 0x01: expected = 3
        case 0x02: expected = 13
        case 0x03, 0x04: expected = 9
        default: throw DESFireError(.malformedResponse, "file type \(bytes[0]) is not one DESFire has (00-04)")
        }
        guard rest.count == expected else {
            throw DESFireError(
                .malformedResponse, "file type \(bytes[0]) settings have \(expected) bytes after the access rights, not \(rest.count)")
        }
        switch bytes[0] {
        case 0x00: kind = .standard(size: three(0))
        case 0x01: kind = .backup(size: three(0))
        case 0x02: kind = .value(lower: four(0), upper: four(4), limitedCredit: four(8), limitedCreditEnabled: rest[12] & 0x01 != 0)
        case 0x03: kind = .linearRecord(recordSize: three(0), maximumRecords: three(3), records: three(6))
        default: kind = .cyclicRecord(recordSize: three(0), maximumRecords: three(3), records: three(6))
        }
    }

    /// The mode bits and the two access-rights bytes, as CreateFile and ChangeFileSettings send them.
    var modeAndAccess: [UInt8] {
        let bits: UInt8 = mode == .plain ? 0x00 : mode == .mac ? 0x01 : 0x03
        return [bits, readWrite.nibble << 4 | change.nibble, read.nibble << 4 | write.nibble]
    }
}
