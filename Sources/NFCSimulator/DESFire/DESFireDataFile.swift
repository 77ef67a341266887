/// One file of a virtual MIFARE DESFire application: its kind, communication mode, access rights
/// and contents, with the changes a transaction has not yet committed.
///
/// MIFARE DESFire EV1 short data sheet (MF3ICDx21_41_81) §8.3 (file types) and the DESFire
/// command set as NXP's EV1/EV2 documentation and AN12343 (MIFARE DESFire Light, §5) describe it:
/// standard data files write at once; backup data, value and record files change only when
/// CommitTransaction runs, so a torn transaction leaves the committed state.
public struct DESFireDataFile: Sendable, Hashable {
    /// A file's kind and the state that goes with it.
    public enum Kind: Sendable, Hashable {
        /// A standard data file (FileType `00`): bytes written at once.
        case standard
        /// A backup data file (`01`): writes wait for CommitTransaction.
        case backup
        /// A value file (`02`): a signed 32-bit value between two limits.
        case value(ValueFile)
        /// A linear record file (`03`): records appended until full.
        case linearRecord(RecordFile)
        /// A cyclic record file (`04`): the oldest record is overwritten when full.
        case cyclicRecord(RecordFile)

        /// FileType as GetFileSettings sends it.
        var code: UInt8 {
            switch self {
            case .standard: 0x00
            case .backup: 0x01
            case .value: 0x02
            case .linearRecord: 0x03
            case .cyclicRecord: 0x04
            }
        }
    }

    /// A value file's settings and state.
    public struct ValueFile: Sendable, Hashable {
        /// The lowest value Debit may reach.
        public var lowerLimit: Int32
        /// The highest value Credit may reach.
        public var upperLimit: Int32
        /// The committed value.
        public var value: Int32
        /// Whether LimitedCredit is allowed.
        public var limitedCreditEnabled: Bool
        /// How much LimitedCredit may add: the sum of the Debits of the last committed transaction.
        public var limitedCreditValue: Int32 = 0

        /// A value file from its settings.
        public init(lowerLimit: Int32, upperLimit: Int32, value: Int32, limitedCreditEnabled: Bool) {
            self.lowerLimit = lowerLimit
            self.upperLimit = upperLimit
            self.value = value
            self.limitedCreditEnabled = limitedCreditEnabled
        }
    }

    /// A record file's settings and committed records.
    public struct RecordFile: Sendable, Hashable {
        /// Bytes per record.
        public var recordSize: Int
        /// The most records the file holds.
        public var maximumRecords: Int
        /// The committed records, oldest first.
        public var records: [[UInt8]] = []

        /// A record file from its settings.
        public init(recordSize: Int, maximumRecords: Int) {
            self.recordSize = recordSize
            self.maximumRecords = maximumRecords
        }
    }

    /// The file number (`00`–`1F`).
    public var number: UInt8
    /// The ISO/IEC 7816-4 file identifier, when the application has them.
    public var isoID: UInt16?
    /// The kind and its state.
    public var kind: Kind
    /// How the file's data travels when a key grants access.
    public var mode: NTAG424File.CommunicationMode
    /// Read, write, read-write and change conditions (a key number, `E` free, `F` never).
    public var access: NTAG424File.AccessRights
    /// The committed bytes of a standard or backup data file (empty for the other kinds).
    public var contents: [UInt8]

    /// A file from its parts.
    public init(
        number: UInt8, isoID: UInt16? = nil, kind: Kind, mode: NTAG424File.CommunicationMode, access: NTAG424File.AccessRights,
        contents: [UInt8] = []
    ) {
        self.number = number
        self.isoID = isoID
        self.kind = kind
        self.mode = mode
        self.access = access
        self.contents = contents
    }

    /// The file's size in bytes as the card accounts it (records: size × maximum; a value: 4).
    var size: Int {
        switch kind {
        case .standard, .backup: contents.count
        case .value: 4
        case .linearRecord(let records), .cyclicRecord(let records): records.recordSize * records.maximumRecords
        }
    }

    /// The memory the file takes: its size in whole 32-byte blocks (the card allocates in blocks of
    /// 32 bytes, EV1 short data sheet §8.3); a backup file keeps room for its uncommitted copy.
    var allocation: Int {
        let bytes = kind == .backup ? size * 2 : size
        return max(32, (bytes + 31) / 32 * 32)
    }

    /// The answer to GetFileSettings: FileType, the communication mode, the access rights (`RW |
    /// Change`, `Read | Write`), then by kind the size (3 bytes); the lower and upper limits, the
    /// limited credit value (4 bytes each, least significant first) and whether limited credit is
    /// enabled; or the record size, the maximum and the current number of records (3 bytes each).
    var settingsBytes: [UInt8] {
        var bytes: [UInt8] = [kind.code, mode.rawValue] + access.bytes
        switch kind {
        case .standard, .backup: bytes += NTAG424File.threeBytes(contents.count)
        case .value(let value):
            bytes += DESFireDataFile.fourBytes(value.lowerLimit) + DESFireDataFile.fourBytes(value.upperLimit)
            bytes += DESFireDataFile.fourBytes(value.limitedCreditValue) + [value.limitedCreditEnabled ? 0x01 : 0x00]
        case .linearRecord(let records), .cyclicRecord(let records):
            bytes += NTAG424File.threeBytes(records.recordSize) + NTAG424File.threeBytes(records.maximumRecords)
            bytes += NTAG424File.threeBytes(records.records.count)
        }
        return bytes
    }

    /// A signed 32-bit value as 4 bytes, least significant first.
    static func fourBytes(_ value: Int32) -> [UInt8] {
        let bits = UInt32(bitPattern: value)
        return (0..<4).map { UInt8(truncatingIfNeeded: bits >> (8 * $0)) }
    }

    /// 4 bytes, least significant first, as a signed value.
    static func signed(_ bytes: ArraySlice<UInt8>) -> Int32 {
        Int32(bitPattern: bytes.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
    }
}
