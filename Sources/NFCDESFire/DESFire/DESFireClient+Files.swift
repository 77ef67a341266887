/// File management in the selected application (MIFARE DESFire EV1 short data sheet §9).
extension DESFireClient {
    /// GetFileIDs (`6F`).
    public func fileIDs() async throws -> [UInt8] {
        try await command("GetFileIDs", 0x6F, mode: managementMode)
    }

    /// GetISOFileIDs (`61`).
    public func isoFileIDs() async throws -> [UInt16] {
        let bytes = try await command("GetISOFileIDs", 0x61, mode: managementMode)
        guard bytes.count % 2 == 0 else { throw DESFireError(.malformedResponse, "GetISOFileIDs answered \(bytes.count) bytes") }
        return stride(from: 0, to: bytes.count, by: 2).map { UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8 }
    }

    /// GetFileSettings (`F5`).
    public func fileSettings(_ file: UInt8) async throws -> DESFireFileSettings {
        try DESFireFileSettings(parsing: try await command("GetFileSettings", 0xF5, header: [file], mode: managementMode))
    }

    /// ChangeFileSettings (`5F`): the mode and access rights of `settings` (its kind is ignored),
    /// encrypted under the file's Change key, or plain when Change is free.
    public func changeFileSettings(_ file: UInt8, to settings: DESFireFileSettings) async throws {
        let current = try await fileSettings(file)
        _ = try await command(
            "ChangeFileSettings", 0x5F, header: [file], data: settings.modeAndAccess, mode: mode([current.change], file: .full))
    }

    /// How a created file is reached and protected.
    public struct FileAccess: Sendable, Hashable {
        /// The ISO file identifier, for an application that has them (standard, backup and record files).
        public var isoFileIdentifier: UInt16?
        /// Plain, MAC or full.
        public var mode: DESFireCommunicationMode
        /// Who reads.
        public var read: DESFireAccess
        /// Who writes.
        public var write: DESFireAccess
        /// Who reads and writes.
        public var readWrite: DESFireAccess
        /// Who changes the settings.
        public var change: DESFireAccess

        /// Access from its parts; by default free reading and writing, changes under key 0.
        public init(
            isoFileIdentifier: UInt16? = nil, mode: DESFireCommunicationMode = .plain, read: DESFireAccess = .free,
            write: DESFireAccess = .free, readWrite: DESFireAccess = .free, change: DESFireAccess = .key(0)
        ) {
            self.isoFileIdentifier = isoFileIdentifier
            self.mode = mode
            self.read = read
            self.write = write
            self.readWrite = readWrite
            self.change = change
        }

        var bytes: [UInt8] {
            let iso = isoFileIdentifier.map { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } ?? []
            let bits: UInt8 = mode == .plain ? 0x00 : mode == .mac ? 0x01 : 0x03
            return iso + [bits, readWrite.nibble << 4 | change.nibble, read.nibble << 4 | write.nibble]
        }
    }

    /// CreateStdDataFile (`CD`) or, with `backup`, CreateBackupDataFile (`CB`) of `size` bytes.
    public func createDataFile(_ file: UInt8, size: Int, access: FileAccess = FileAccess(), backup: Bool = false) async throws {
        try Self.checkFile(file)
        guard (1...0xFF_FFFF).contains(size) else { throw DESFireError(.invalidArgument, "a file has 1 to 16777215 bytes, not \(size)") }
        let name = backup ? "CreateBackupDataFile" : "CreateStdDataFile"
        _ = try await command(name, backup ? 0xCB : 0xCD, data: [file] + access.bytes + Self.threeBytes(size), mode: managementMode)
    }

    /// CreateValueFile (`CC`): limits, the starting value and whether LimitedCredit is allowed.
    public func createValueFile(
        _ file: UInt8, lower: Int32, upper: Int32, value: Int32, limitedCredit: Bool = false, access: FileAccess = FileAccess()
    ) async throws {
        try Self.checkFile(file)
        guard lower <= upper, (lower...upper).contains(value) else {
            throw DESFireError(.invalidArgument, "a value file needs lower <= value <= upper; got \(lower), \(value), \(upper)")
        }
        var plain = access
        plain.isoFileIdentifier = nil
        let data =
            [file] + plain.bytes + Self.fourBytes(lower) + Self.fourBytes(upper) + Self.fourBytes(value) + [limitedCredit ? 0x01 : 0x00]
        _ = try await command("CreateValueFile", 0xCC, data: data, mode: managementMode)
    }

    /// CreateLinearRecordFile (`C1`) or, with `cyclic`, CreateCyclicRecordFile (`C0`): records of
    /// `recordSize` bytes, room for `maximumRecords` (a cyclic file keeps one for the record being written).
    public func createRecordFile(
        _ file: UInt8, recordSize: Int, maximumRecords: Int, cyclic: Bool = false, access: FileAccess = FileAccess()
    ) async throws {
        try Self.checkFile(file)
        guard (1...0xFF_FFFF).contains(recordSize), ((cyclic ? 2 : 1)...0xFF_FFFF).contains(maximumRecords) else {
            throw DESFireError(.invalidArgument, "records of 1 byte or more, room for \(cyclic ? 2 : 1) or more")
        }
        let data = [file] + access.bytes + Self.threeBytes(recordSize) + Self.threeBytes(maximumRecords)
        _ = try await command(
            cyclic ? "CreateCyclicRecordFile" : "CreateLinearRecordFile", cyclic ? 0xC0 : 0xC1, data: data, mode: managementMode)
    }

    /// DeleteFile (`DF`).
    public func deleteFile(_ file: UInt8) async throws {
        try Self.checkFile(file)
        _ = try await command("DeleteFile", 0xDF, header: [file], mode: managementMode)
    }

    static func checkFile(_ file: UInt8) throws(DESFireError) {
        guard file <= 0x1F else { throw DESFireError(.invalidArgument, "file numbers are 0 to 31, not \(file)") }
    }

    static func fourBytes(_ value: Int32) -> [UInt8] {
        let bits = UInt32(bitPattern: value)
        return (0..<4).map { UInt8(truncatingIfNeeded: bits >> (8 * $0)) }
    }
}
