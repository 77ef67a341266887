/// Application-level file management: listing, settings, creating and deleting files (MIFARE
/// DESFire EV1 short data sheet §8.3 and §9).
extension DESFireCard {
    /// The selected application's index, or PERMISSION_DENIED at the PICC level.
    func application() -> Result<Int, DESFireStatus> {
        guard let selected else { return .failure(.permissionDenied) }
        return .success(selected)
    }

    /// GetFileIDs (`6F`): the file numbers; free when the key settings allow listing (bit 1).
    mutating func getFileIDs(_ data: [UInt8]) -> DESFireAnswer {
        guard case .success(let app) = application() else { return DESFireAnswer(.permissionDenied) }
        if let refused = requireMaster(unless: levelKeySettings & 0x02 != 0) { return DESFireAnswer(refused) }
        switch open(ins: 0x6F, data, headerLength: 0, mode: managementMode) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let parts):
            guard parts.body.isEmpty else { return DESFireAnswer(.lengthError) }
            return seal(applications[app].files.map(\.number), mode: managementMode)
        }
    }

    /// GetISOFileIDs (`61`): the ISO identifiers, 2 bytes each, least significant first.
    mutating func getISOFileIDs(_ data: [UInt8]) -> DESFireAnswer {
        guard case .success(let app) = application() else { return DESFireAnswer(.permissionDenied) }
        if let refused = requireMaster(unless: levelKeySettings & 0x02 != 0) { return DESFireAnswer(refused) }
        switch open(ins: 0x61, data, headerLength: 0, mode: managementMode) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let parts):
            guard parts.body.isEmpty else { return DESFireAnswer(.lengthError) }
            let ids = applications[app].files.compactMap(\.isoID).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            return seal(ids, mode: managementMode)
        }
    }

    /// GetFileSettings (`F5`): FileNo; the settings (``DESFireDataFile/settingsBytes``), free when
    /// listing is.
    mutating func getFileSettings(_ data: [UInt8]) -> DESFireAnswer {
        guard case .success(let app) = application() else { return DESFireAnswer(.permissionDenied) }
        if let refused = requireMaster(unless: levelKeySettings & 0x02 != 0) { return DESFireAnswer(refused) }
        switch open(ins: 0xF5, data, headerLength: 1, mode: managementMode) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let parts):
            guard parts.body.isEmpty else { return DESFireAnswer(.lengthError) }
            guard let index = applications[app].fileIndex(parts.header[0]) else { return DESFireAnswer(.fileNotFound) }
            return seal(applications[app].files[index].settingsBytes, mode: managementMode)
        }
    }

    /// ChangeFileSettings (`5F`): FileNo, then the communication mode and the access rights,
    /// encrypted under the file's Change key (plain when Change is free).
    mutating func changeFileSettings(_ data: [UInt8]) -> DESFireAnswer {
        guard case .success(let app) = application() else { return DESFireAnswer(.permissionDenied) }
        guard let number = data.first else { return DESFireAnswer(.lengthError) }
        guard let index = applications[app].fileIndex(number) else { return DESFireAnswer(.fileNotFound) }
        let grant: Grant
        switch self.grant([applications[app].files[index].access.change]) {
        case .success(let granted): grant = granted
        case .failure(let status): return DESFireAnswer(status)
        }
        let mode: NTAG424File.CommunicationMode = grant == .key ? .full : .plain
        switch open(ins: 0x5F, data, headerLength: 1, mode: mode, bodyLength: 3) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let parts):
            guard parts.body.count == 3 else { return DESFireAnswer(.lengthError) }
            guard parts.body[0] & ~0x03 == 0, let access = Self.accessRights(parts.body[1..<3]) else {
                return DESFireAnswer(.parameterError)
            }
            applications[app].files[index].mode = NTAG424File.CommunicationMode(bits: parts.body[0])
            applications[app].files[index].access = access
            uncommitted?[index].mode = applications[app].files[index].mode
            uncommitted?[index].access = access
            return seal([], mode: mode, writes: true)
        }
    }

    /// Access rights from their two bytes; each condition a key `0`–`D`, `E` or `F`.
    static func accessRights(_ bytes: ArraySlice<UInt8>) -> NTAG424File.AccessRights? {
        guard bytes.count == 2 else { return nil }
        let first = bytes[bytes.startIndex]
        let second = bytes[bytes.startIndex + 1]
        return NTAG424File.AccessRights(read: second >> 4, write: second & 0x0F, readWrite: first >> 4, change: first & 0x0F)
    }

    /// The parts every CreateFile command starts with: FileNo, the ISO identifier when the
    /// application has them and the command carries one (told by its length: `restLength` bytes
    /// follow the access rights; least significant byte first), the communication mode and the
    /// access rights; the rest is the kind's.
    private mutating func fileHeader(
        ins: UInt8, _ data: [UInt8], restLength: Int, hasISO: Bool
    ) -> Result<
        (app: Int, number: UInt8, isoID: UInt16?, mode: NTAG424File.CommunicationMode, access: NTAG424File.AccessRights, rest: [UInt8]),
        DESFireStatus
    > {
        guard case .success(let app) = application() else { return .failure(.permissionDenied) }
        if let refused = requireMaster(unless: levelKeySettings & 0x04 != 0) { return .failure(refused) }
        let body: [UInt8]
        switch open(ins: ins, data, headerLength: 0, mode: managementMode) {
        case .failure(let status): return .failure(status)
        case .success(let parts): body = parts.body
        }
        let isoLength = hasISO && applications[app].isoID != nil && body.count == 6 + restLength ? 2 : 0
        guard body.count == 4 + isoLength + restLength else { return .failure(.lengthError) }
        let number = body[0]
        guard number <= 0x1F, body[1 + isoLength] & ~0x03 == 0,
            let access = Self.accessRights(body[(2 + isoLength)..<(4 + isoLength)])
        else { return .failure(.parameterError) }
        var isoID: UInt16?
        if isoLength == 2 {
            let id = UInt16(body[2]) << 8 | UInt16(body[1])
            guard !applications[app].files.contains(where: { $0.isoID == id }), id != 0x3F00, id != applications[app].isoID else {
                return .failure(.duplicateError)
            }
            isoID = id
        }
        guard applications[app].fileIndex(number) == nil else { return .failure(.duplicateError) }
        return .success(
            (app, number, isoID, NTAG424File.CommunicationMode(bits: body[1 + isoLength]), access, Array(body[(4 + isoLength)...])))
    }

    /// Adds a file when the memory holds it (OUT_OF_EEPROM_ERROR otherwise).
    private mutating func add(_ file: DESFireDataFile, to app: Int) -> DESFireAnswer {
        guard file.allocation <= freeMemory else { return DESFireAnswer(.outOfMemory) }
        applications[app].files.append(file)
        uncommitted?.append(file)
        return seal([], mode: managementMode, writes: true)
    }

    /// CreateStdDataFile (`CD`) and CreateBackupDataFile (`CB`): the header, then the size (3
    /// bytes, least significant first, at least 1). The file starts zero-filled. The ISO
    /// identifier is optional in an application that has them.
    mutating func createDataFile(_ data: [UInt8], backup: Bool) -> DESFireAnswer {
        switch fileHeader(ins: backup ? 0xCB : 0xCD, data, restLength: 3, hasISO: true) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let header):
            guard header.rest.count == 3 else { return DESFireAnswer(.lengthError) }
            let size = NTAG424File.number(header.rest[...])
            guard size > 0 else { return DESFireAnswer(.parameterError) }
            let file = DESFireDataFile(
                number: header.number, isoID: header.isoID, kind: backup ? .backup : .standard, mode: header.mode, access: header.access,
                contents: [UInt8](repeating: 0, count: size))
            return add(file, to: header.app)
        }
    }

    /// CreateValueFile (`CC`): the header (no ISO identifier), then the lower limit, the upper
    /// limit and the value (4 bytes each, signed, least significant first) and whether
    /// LimitedCredit is enabled (bit 0). Limits out of order or a value outside them: BOUNDARY_ERROR.
    mutating func createValueFile(_ data: [UInt8]) -> DESFireAnswer {
        switch fileHeader(ins: 0xCC, data, restLength: 13, hasISO: false) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let header):
            let rest = header.rest
            guard rest.count == 13 else { return DESFireAnswer(.lengthError) }
            let lower = DESFireDataFile.signed(rest[0..<4])
            let upper = DESFireDataFile.signed(rest[4..<8])
            let value = DESFireDataFile.signed(rest[8..<12])
            guard lower <= upper, (lower...upper).contains(value) else { return DESFireAnswer(.boundaryError) }
            let file = DESFireDataFile(
                number: header.number,
                kind: .value(.init(lowerLimit: lower, upperLimit: upper, value: value, limitedCreditEnabled: rest[12] & 0x01 != 0)),
                mode: header.mode, access: header.access)
            return add(file, to: header.app)
        }
    }

    /// CreateLinearRecordFile (`C1`) and CreateCyclicRecordFile (`C0`): the header, then the
    /// record size and the number of records (3 bytes each, at least 1; a cyclic file at least 2,
    /// one of which it keeps for the record being written).
    mutating func createRecordFile(_ data: [UInt8], cyclic: Bool) -> DESFireAnswer {
        switch fileHeader(ins: cyclic ? 0xC0 : 0xC1, data, restLength: 6, hasISO: true) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let header):
            guard header.rest.count == 6 else { return DESFireAnswer(.lengthError) }
            let size = NTAG424File.number(header.rest[0..<3])
            let count = NTAG424File.number(header.rest[3..<6])
            guard size > 0, count >= (cyclic ? 2 : 1) else { return DESFireAnswer(.parameterError) }
            let records = DESFireDataFile.RecordFile(recordSize: size, maximumRecords: count)
            let file = DESFireDataFile(
                number: header.number, isoID: header.isoID, kind: cyclic ? .cyclicRecord(records) : .linearRecord(records),
                mode: header.mode, access: header.access)
            return add(file, to: header.app)
        }
    }

    /// DeleteFile (`DF`): FileNo; under the master key unless the key settings free it (bit 2).
    mutating func deleteFile(_ data: [UInt8]) -> DESFireAnswer {
        guard case .success(let app) = application() else { return DESFireAnswer(.permissionDenied) }
        if let refused = requireMaster(unless: levelKeySettings & 0x04 != 0) { return DESFireAnswer(refused) }
        switch open(ins: 0xDF, data, headerLength: 1, mode: managementMode) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let parts):
            guard parts.body.isEmpty else { return DESFireAnswer(.lengthError) }
            guard let index = applications[app].fileIndex(parts.header[0]) else { return DESFireAnswer(.fileNotFound) }
            applications[app].files.remove(at: index)
            uncommitted?.remove(at: index)
            forget(file: parts.header[0])
            if currentFile == index { currentFile = nil } else if let current = currentFile, current > index { currentFile = current - 1 }
            return seal([], mode: managementMode, writes: true)
        }
    }
}
