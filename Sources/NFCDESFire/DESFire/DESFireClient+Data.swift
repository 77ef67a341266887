/// Reading and writing the selected application's files, and transactions (MIFARE DESFire EV1
/// short data sheet §9). Each command runs in the file's mode when the session's key grants the
/// access, plain when the access is free.
extension DESFireClient {
    /// The most data one WriteData or WriteRecord carries.
    public static let writeChunk = 128
    /// The most data bytes one command frame carries; longer commands go on in `AF` frames
    /// (a DESFire EV1 takes 64-byte frames: 59 bytes of data in a wrapped APDU).
    public static let commandFrameLimit = 59
    /// The most data one ReadData asks for.
    public static let readChunk = 192

    /// ReadData (`BD`) of a standard or backup file: `length` bytes from `offset` (`nil`: to the
    /// end), in parts. The file's settings are read first unless given (in an application whose
    /// listing needs the master key, a reader holding only the file's key passes them).
    public func read(file: UInt8, offset: Int = 0, length: Int? = nil, settings given: DESFireFileSettings? = nil) async throws
        -> [UInt8]
    {
        let settings = try await settingsOf(file, given)
        guard let size = settings.kind.size else {
            throw DESFireError(.invalidArgument, "file \(file) is a \(settings.kind.name) file; ReadData reads data files")
        }
        let total = length ?? max(size - offset, 0)
        guard offset >= 0, total >= 0, offset <= size, total <= size - offset else {
            throw DESFireError(.invalidArgument, "\(total) bytes from \(offset) are outside file \(file) of \(size) bytes")
        }
        let mode = mode([settings.read, settings.readWrite], file: settings.mode)
        var out: [UInt8] = []
        while out.count < total {
            let count = min(Self.readChunk, total - out.count)
            let part = try await command(
                "ReadData", 0xBD, header: [file] + Self.threeBytes(offset + out.count) + Self.threeBytes(count), mode: mode,
                answerLength: count)
            guard part.count == count else {
                throw DESFireError(.malformedResponse, "ReadData answered \(part.count) bytes; \(count) asked")
            }
            out += part
        }
        return out
    }

    /// WriteData (`3D`) at `offset`, in parts of at most ``writeChunk`` bytes, each in frames of
    /// ``commandFrameLimit``. A backup file's data waits for ``commit()``. The file's settings are
    /// read first unless given.
    public func write(_ data: [UInt8], file: UInt8, offset: Int = 0, settings given: DESFireFileSettings? = nil) async throws {
        let settings = try await settingsOf(file, given)
        guard let size = settings.kind.size else {
            throw DESFireError(.invalidArgument, "file \(file) is a \(settings.kind.name) file; WriteData writes data files")
        }
        guard offset >= 0, offset <= size, data.count <= size - offset else {
            throw DESFireError(.invalidArgument, "\(data.count) bytes at \(offset) do not fit file \(file) of \(size) bytes")
        }
        let mode = mode([settings.write, settings.readWrite], file: settings.mode)
        var done = 0
        while done < data.count {
            let part = Array(data[done..<min(done + Self.writeChunk, data.count)])
            let header = [file] + Self.threeBytes(offset + done) + Self.threeBytes(part.count)
            _ = try await command("WriteData", 0x3D, header: header, data: part, mode: mode, frameLimit: Self.commandFrameLimit)
            done += part.count
        }
    }

    /// GetValue (`6C`): a value file's committed value.
    public func value(file: UInt8) async throws -> Int32 {
        let settings = try await fileSettings(file)
        let bytes = try await command(
            "GetValue", 0x6C, header: [file], mode: mode([settings.read, settings.write, settings.readWrite], file: settings.mode),
            answerLength: 4)
        guard bytes.count == 4 else { throw DESFireError(.malformedResponse, "GetValue answered \(bytes.count) bytes; 4 expected") }
        return Int32(bitPattern: UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24)
    }

    /// What a value operation does.
    public enum ValueOperation: String, Sendable, Hashable, CaseIterable {
        /// Credit (`0C`, ReadWrite access).
        case credit
        /// Debit (`DC`, Read, Write or ReadWrite access).
        case debit
        /// LimitedCredit (`1C`, Write or ReadWrite access).
        case limitedCredit = "limited-credit"
    }

    /// Credit, Debit or LimitedCredit of `amount` (0 to 2^31 − 1); the value changes at ``commit()``.
    public func change(value operation: ValueOperation, file: UInt8, amount: Int32) async throws {
        guard amount >= 0 else { throw DESFireError(.invalidArgument, "an amount is 0 or more, not \(amount)") }
        let settings = try await fileSettings(file)
        let (ins, conditions, name): (UInt8, [DESFireAccess], String) =
            switch operation {
            case .credit: (0x0C, [settings.readWrite], "Credit")
            case .debit: (0xDC, [settings.read, settings.write, settings.readWrite], "Debit")
            case .limitedCredit: (0x1C, [settings.write, settings.readWrite], "LimitedCredit")
            }
        _ = try await command(name, ins, header: [file], data: Self.fourBytes(amount), mode: mode(conditions, file: settings.mode))
    }

    /// WriteRecord (`3B`): `data` at `offset` in the record this transaction writes (a new one on
    /// the first WriteRecord of a transaction); it becomes a record at ``commit()``.
    public func writeRecord(_ data: [UInt8], file: UInt8, offset: Int = 0) async throws {
        let settings = try await fileSettings(file)
        let recordSize: Int
        switch settings.kind {
        case .linearRecord(let size, _, _), .cyclicRecord(let size, _, _): recordSize = size
        default: throw DESFireError(.invalidArgument, "file \(file) is a \(settings.kind.name) file; WriteRecord writes record files")
        }
        guard !data.isEmpty, offset >= 0, offset <= recordSize, data.count <= recordSize - offset, data.count <= Self.writeChunk else {
            throw DESFireError(
                .invalidArgument, "\(data.count) bytes at \(offset) do not fit a record of \(recordSize) bytes in one command")
        }
        let header = [file] + Self.threeBytes(offset) + Self.threeBytes(data.count)
        _ = try await command(
            "WriteRecord", 0x3B, header: header, data: data, mode: mode([settings.write, settings.readWrite], file: settings.mode),
            frameLimit: Self.commandFrameLimit)
    }

    /// ReadRecords (`BB`): `count` committed records (`0`: all) ending `offset` records back from
    /// the newest, oldest first.
    public func readRecords(file: UInt8, offset: Int = 0, count: Int = 0) async throws -> [[UInt8]] {
        guard (0...0xFF_FFFF).contains(offset), (0...0xFF_FFFF).contains(count) else {
            throw DESFireError(.invalidArgument, "a record offset and count are 0 to 16777215")
        }
        let settings = try await fileSettings(file)
        let recordSize: Int
        switch settings.kind {
        case .linearRecord(let size, _, _), .cyclicRecord(let size, _, _): recordSize = size
        default: throw DESFireError(.invalidArgument, "file \(file) is a \(settings.kind.name) file; ReadRecords reads record files")
        }
        let header = [file] + Self.threeBytes(offset) + Self.threeBytes(count)
        let bytes = try await command(
            "ReadRecords", 0xBB, header: header, mode: mode([settings.read, settings.readWrite], file: settings.mode))
        guard recordSize > 0, bytes.count % recordSize == 0 else {
            throw DESFireError(.malformedResponse, "ReadRecords answered \(bytes.count) bytes, not whole records of \(recordSize)")
        }
        return stride(from: 0, to: bytes.count, by: recordSize).map { Array(bytes[$0..<$0 + recordSize]) }
    }

    /// ClearRecordFile (`EB`): the records go at ``commit()``.
    public func clearRecords(file: UInt8) async throws {
        _ = try await command("ClearRecordFile", 0xEB, header: [file], mode: managementMode)
    }

    /// CommitTransaction (`C7`): backup, value and record changes take effect together. A card
    /// with nothing to commit answers NO_CHANGES, which is no error.
    public func commit() async throws {
        _ = try await command("CommitTransaction", 0xC7, mode: managementMode, noChanges: true)
    }

    /// AbortTransaction (`A7`): they are dropped (NO_CHANGES when there is nothing to drop).
    public func abort() async throws {
        _ = try await command("AbortTransaction", 0xA7, mode: managementMode, noChanges: true)
    }

    /// The file's settings: `given`, or GetFileSettings.
    private func settingsOf(_ file: UInt8, _ given: DESFireFileSettings?) async throws -> DESFireFileSettings {
        if let given { return given }
        return try await fileSettings(file)
    }
}
