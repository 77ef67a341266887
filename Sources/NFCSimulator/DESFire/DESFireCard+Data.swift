/// Reading and writing files: data, values and records (MIFARE DESFire EV1 short data sheet §8.3
/// and §9). Backup, value and record files change in ``DESFireCard/uncommitted`` until
/// CommitTransaction.
extension DESFireCard {
    /// The file a data command names, the grant its conditions give, and the mode that follows
    /// (the file's with a key, plain when free).
    private func target(
        _ number: UInt8?, conditions: (NTAG424File.AccessRights) -> [UInt8]
    ) -> Result<(app: Int, index: Int, mode: NTAG424File.CommunicationMode), DESFireStatus> {
        guard case .success(let app) = application() else { return .failure(.permissionDenied) }
        guard let number else { return .failure(.lengthError) }
        guard let index = applications[app].fileIndex(number) else { return .failure(.fileNotFound) }
        let file = applications[app].files[index]
        switch grant(conditions(file.access)) {
        case .failure(let status): return .failure(status)
        case .success(let grant): return .success((app, index, grant == .key ? file.mode : .plain))
        }
    }

    /// The working copy of the application's files, made on the first uncommitted change.
    private mutating func working(_ app: Int) -> [DESFireDataFile] {
        if let uncommitted { return uncommitted }
        uncommitted = applications[app].files
        return applications[app].files
    }

    /// ReadData (`BD`, or `AD`): FileNo, Offset and Length (3 bytes each, length `000000` to
    /// the end) of a standard or backup file (committed data), under Read or ReadWrite.
    mutating func readData(_ ins: UInt8, _ data: [UInt8]) -> DESFireAnswer {
        switch target(data.first, conditions: { [$0.read, $0.readWrite] }) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let found):
            switch open(ins: ins, data, headerLength: 7, mode: found.mode) {
            case .failure(let status): return DESFireAnswer(status)
            case .success(let parts):
                guard parts.body.isEmpty else { return DESFireAnswer(.lengthError) }
                let file = applications[found.app].files[found.index]
                guard file.kind == .standard || file.kind == .backup else { return DESFireAnswer(.parameterError) }
                let offset = NTAG424File.number(parts.header[1..<4])
                var length = NTAG424File.number(parts.header[4..<7])
                guard offset < file.contents.count else { return DESFireAnswer(.boundaryError) }
                if length == 0 { length = file.contents.count - offset }
                guard length <= file.contents.count - offset else { return DESFireAnswer(.boundaryError) }
                return seal(Array(file.contents[offset..<offset + length]), mode: found.mode)
            }
        }
    }

    /// WriteData (`3D`, or `8D`): FileNo, Offset, Length, then the data, under Write or
    /// ReadWrite. A standard file changes at once; a backup file at CommitTransaction.
    mutating func writeData(_ ins: UInt8, _ data: [UInt8]) -> DESFireAnswer {
        switch target(data.first, conditions: { [$0.write, $0.readWrite] }) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let found):
            switch open(
                ins: ins, data, headerLength: 7, mode: found.mode, bodyLength: data.count >= 7 ? NTAG424File.number(data[4..<7]) : nil)
            {
            case .failure(let status): return DESFireAnswer(status)
            case .success(let parts):
                let file = applications[found.app].files[found.index]
                let offset = NTAG424File.number(parts.header[1..<4])
                let length = NTAG424File.number(parts.header[4..<7])
                guard file.kind == .standard || file.kind == .backup else { return DESFireAnswer(.parameterError) }
                guard offset <= file.contents.count, length <= file.contents.count - offset else { return DESFireAnswer(.boundaryError) }
                guard length == parts.body.count, length > 0 else { return DESFireAnswer(.lengthError) }
                let range = offset..<offset + length
                if file.kind == .standard {
                    applications[found.app].files[found.index].contents.replaceSubrange(range, with: parts.body)
                    uncommitted?[found.index].contents.replaceSubrange(range, with: parts.body)
                } else {
                    var files = working(found.app)
                    files[found.index].contents.replaceSubrange(range, with: parts.body)
                    uncommitted = files
                }
                return seal([], mode: writeAnswerMode(found.mode), writes: true)
            }
        }
    }

    /// GetValue (`6C`): FileNo; the committed value, 4 bytes, under Read, Write or ReadWrite.
    mutating func getValue(_ data: [UInt8]) -> DESFireAnswer {
        switch target(data.first, conditions: { [$0.read, $0.write, $0.readWrite] }) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let found):
            switch open(ins: 0x6C, data, headerLength: 1, mode: found.mode) {
            case .failure(let status): return DESFireAnswer(status)
            case .success(let parts):
                guard parts.body.isEmpty else { return DESFireAnswer(.lengthError) }
                guard case .value(let value) = applications[found.app].files[found.index].kind else {
                    return DESFireAnswer(.parameterError)
                }
                return seal(DESFireDataFile.fourBytes(value.value), mode: found.mode)
            }
        }
    }

    /// Credit (`0C`, ReadWrite), Debit (`DC`, Read, Write or ReadWrite) and LimitedCredit (`1C`,
    /// Write or ReadWrite): FileNo, then an amount of 0 to 2^31 − 1 (4 bytes). The value changes
    /// at CommitTransaction; leaving the limits is a BOUNDARY_ERROR. LimitedCredit may add at most
    /// what the last committed transaction debited, once per transaction, when enabled.
    mutating func changeValue(_ ins: UInt8, _ data: [UInt8]) -> DESFireAnswer {
        let conditions: (NTAG424File.AccessRights) -> [UInt8] =
            switch ins {
            case 0x0C: { [$0.readWrite] }
            case 0xDC: { [$0.read, $0.write, $0.readWrite] }
            default: { [$0.write, $0.readWrite] }
            }
        switch target(data.first, conditions: conditions) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let found):
            switch open(ins: ins, data, headerLength: 1, mode: found.mode, bodyLength: 4) {
            case .failure(let status): return DESFireAnswer(status)
            case .success(let parts):
                guard parts.body.count == 4 else { return DESFireAnswer(.lengthError) }
                var files = working(found.app)
                guard case .value(var value) = files[found.index].kind else { return DESFireAnswer(.parameterError) }
                let amount = Int64(DESFireDataFile.signed(parts.body[0..<4]))
                guard amount >= 0 else { return DESFireAnswer(.parameterError) }
                let number = files[found.index].number
                var next = Int64(value.value)
                switch ins {
                case 0xDC: next -= amount
                case 0x1C:
                    guard value.limitedCreditEnabled, !limitedCreditUsed.contains(number) else { return DESFireAnswer(.permissionDenied) }
                    guard amount <= Int64(value.limitedCreditValue) else { return DESFireAnswer(.boundaryError) }
                    next += amount
                default: next += amount
                }
                guard next >= Int64(value.lowerLimit), next <= Int64(value.upperLimit) else { return DESFireAnswer(.boundaryError) }
                if ins == 0x1C { limitedCreditUsed.insert(number) }
                if ins == 0xDC { debited[number, default: 0] += amount }
                value.value = Int32(next)
                files[found.index].kind = .value(value)
                uncommitted = files
                return seal([], mode: writeAnswerMode(found.mode))
            }
        }
    }

    /// WriteRecord (`3B`, or `8B`): FileNo, Offset within the record, Length, then the data, under
    /// Write or ReadWrite. The first WriteRecord of a transaction starts a new zero-filled record,
    /// the next ones of the same transaction write into it; a full linear file refuses
    /// (BOUNDARY_ERROR); a full cyclic file drops its oldest record. The command's data may go on
    /// in `AF` frames (``DESFireCard/continuedLength(_:_:)``).
    mutating func writeRecord(_ ins: UInt8, _ data: [UInt8]) -> DESFireAnswer {
        switch target(data.first, conditions: { [$0.write, $0.readWrite] }) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let found):
            switch open(
                ins: ins, data, headerLength: 7, mode: found.mode, bodyLength: data.count >= 7 ? NTAG424File.number(data[4..<7]) : nil)
            {
            case .failure(let status): return DESFireAnswer(status)
            case .success(let parts):
                var files = working(found.app)
                var file = files[found.index]
                let cyclic: Bool
                var records: DESFireDataFile.RecordFile
                switch file.kind {
                case .linearRecord(let kind): (cyclic, records) = (false, kind)
                case .cyclicRecord(let kind): (cyclic, records) = (true, kind)
                default: return DESFireAnswer(.parameterError)
                }
                let offset = NTAG424File.number(parts.header[1..<4])
                let length = NTAG424File.number(parts.header[4..<7])
                guard offset <= records.recordSize, length <= records.recordSize - offset else { return DESFireAnswer(.boundaryError) }
                guard length == parts.body.count, length > 0 else { return DESFireAnswer(.lengthError) }
                if !writingRecords.contains(file.number) || records.records.isEmpty {
                    let limit = cyclic ? records.maximumRecords - 1 : records.maximumRecords
                    if records.records.count >= limit {
                        guard cyclic else { return DESFireAnswer(.boundaryError) }
                        records.records.removeFirst()
                    }
                    records.records.append([UInt8](repeating: 0, count: records.recordSize))
                    writingRecords.insert(file.number)
                }
                records.records[records.records.count - 1].replaceSubrange(offset..<offset + length, with: parts.body)
                file.kind = cyclic ? .cyclicRecord(records) : .linearRecord(records)
                files[found.index] = file
                uncommitted = files
                return seal([], mode: writeAnswerMode(found.mode))
            }
        }
    }

    /// ReadRecords (`BB`, or `AB`): FileNo, the offset of the newest record to read (`0` the
    /// newest) and how many (`0` all older ones too), 3 bytes each; the committed records, oldest
    /// first, under Read or ReadWrite. Asking past the records: BOUNDARY_ERROR.
    mutating func readRecords(_ ins: UInt8, _ data: [UInt8]) -> DESFireAnswer {
        switch target(data.first, conditions: { [$0.read, $0.readWrite] }) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let found):
            switch open(ins: ins, data, headerLength: 7, mode: found.mode) {
            case .failure(let status): return DESFireAnswer(status)
            case .success(let parts):
                guard parts.body.isEmpty else { return DESFireAnswer(.lengthError) }
                let records: [[UInt8]]
                switch applications[found.app].files[found.index].kind {
                case .linearRecord(let kind), .cyclicRecord(let kind): records = kind.records
                default: return DESFireAnswer(.parameterError)
                }
                let offset = NTAG424File.number(parts.header[1..<4])
                var count = NTAG424File.number(parts.header[4..<7])
                guard offset < records.count else { return DESFireAnswer(.boundaryError) }
                if count == 0 { count = records.count - offset }
                guard count <= records.count - offset else { return DESFireAnswer(.boundaryError) }
                let newest = records.count - offset
                return seal(records[(newest - count)..<newest].flatMap { $0 }, mode: found.mode)
            }
        }
    }

    /// ClearRecordFile (`EB`): FileNo, under ReadWrite; the records go at CommitTransaction.
    mutating func clearRecordFile(_ data: [UInt8]) -> DESFireAnswer {
        switch target(data.first, conditions: { [$0.readWrite] }) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let found):
            let mode = managementMode
            switch open(ins: 0xEB, data, headerLength: 1, mode: mode) {
            case .failure(let status): return DESFireAnswer(status)
            case .success(let parts):
                guard parts.body.isEmpty else { return DESFireAnswer(.lengthError) }
                var files = working(found.app)
                switch files[found.index].kind {
                case .linearRecord(var kind):
                    kind.records = []
                    files[found.index].kind = .linearRecord(kind)
                case .cyclicRecord(var kind):
                    kind.records = []
                    files[found.index].kind = .cyclicRecord(kind)
                default: return DESFireAnswer(.parameterError)
                }
                writingRecords.remove(files[found.index].number)
                uncommitted = files
                return seal([], mode: mode)
            }
        }
    }
}
