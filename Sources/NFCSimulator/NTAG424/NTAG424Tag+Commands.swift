/// The file, key and identity commands (data sheet NT4H2421Gx §10.5–§10.8).
extension NTAG424Tag {
    /// GetFileSettings (`F5`, §10.7.2): FileNo; MAC mode inside a session.
    mutating func getFileSettings(_ data: [UInt8]) -> SimResponseAPDU {
        let mode: NTAG424File.CommunicationMode = session == nil ? .plain : .mac
        switch open(ins: 0xF5, data, headerLength: 1, mode: mode) {
        case .failure(let status): return Self.native(status)
        case .success(let parts):
            guard parts.body.isEmpty else { return Self.native(.lengthError) }
            guard let index = fileIndex(parts.header[0]) else { return Self.native(.fileNotFound) }
            return seal(files[index].settingsBytes, mode: mode)
        }
    }

    /// ChangeFileSettings (`5F`, §10.7.1): FileNo, then FileOption, access rights and the SDM
    /// settings, in full mode under the file's Change key (plain when Change is free).
    mutating func changeFileSettings(_ data: [UInt8]) -> SimResponseAPDU {
        guard let number = data.first else { return Self.native(.lengthError) }
        guard let index = fileIndex(number) else { return Self.native(.fileNotFound) }
        let grant: Grant
        switch self.grant([files[index].access.change]) {
        case .success(let granted): grant = granted
        case .failure(let status): return Self.native(status)
        }
        let mode: NTAG424File.CommunicationMode = grant == .key ? .full : .plain
        switch open(ins: 0x5F, data, headerLength: 1, mode: mode) {
        case .failure(let status): return Self.native(status)
        case .success(let parts):
            let body = parts.body
            guard body.count >= 3 else { return Self.native(.lengthError) }
            let option = body[0]
            // Only the mode bits and SDM (bit 6) exist; SDM belongs to the NDEF file (§9.3, Table 71).
            guard option & ~0x43 == 0, let access = NTAG424File.AccessRights(bytes: body[1..<3]) else {
                return Self.native(.parameterError)
            }
            var sdm: NTAG424SDM?
            if option & 0x40 != 0 {
                guard number == 0x02 else { return Self.native(.permissionDenied) }
                guard let parsed = NTAG424SDM(parsing: body[3...], fileSize: files[index].contents.count, lrp: lrpMode) else {
                    return Self.native(.parameterError)
                }
                sdm = parsed
                // Enabling SDM starts SDMReadCtr from zero (§9.3.1).
                if files[index].sdm == nil { files[index].readCounter = 0 }
            } else if body.count != 3 {
                return Self.native(.lengthError)
            }
            files[index].mode = NTAG424File.CommunicationMode(bits: option)
            files[index].access = access
            files[index].sdm = sdm
            return seal([], mode: mode, writes: true)
        }
    }

    /// ReadData (`AD`, §10.8.1): FileNo, Offset and Length (3 bytes each, `000000` to the end).
    /// An SDM file read with free access is mirrored first (§9.3).
    mutating func readData(_ data: [UInt8]) -> SimResponseAPDU {
        guard data.count >= 7 else { return Self.native(.lengthError) }
        guard let index = fileIndex(data[0]) else { return Self.native(.fileNotFound) }
        let file = files[index]
        let grant: Grant
        switch self.grant(readConditions(file)) {
        case .success(let granted): grant = granted
        case .failure(let status): return Self.native(status)
        }
        let mode = grant == .key ? file.mode : .plain
        switch open(ins: 0xAD, data, headerLength: 7, mode: mode) {
        case .failure(let status): return Self.native(status)
        case .success(let parts):
            guard parts.body.isEmpty else { return Self.native(.lengthError) }
            let offset = NTAG424File.number(parts.header[1..<4])
            var length = NTAG424File.number(parts.header[4..<7])
            guard offset < file.contents.count else { return Self.native(.boundaryError) }
            if length == 0 { length = file.contents.count - offset }
            guard offset + length <= file.contents.count else { return Self.native(.boundaryError) }
            guard let (contents, counted) = readableContents(index, iso: false) else { return Self.native(.permissionDenied) }
            return seal(Array(contents[offset..<offset + length]), mode: mode, writes: counted)
        }
    }

    /// WriteData (`8D`, §10.8.2): FileNo, Offset, Length, then the data.
    mutating func writeData(_ data: [UInt8]) -> SimResponseAPDU {
        guard data.count >= 7 else { return Self.native(.lengthError) }
        guard let index = fileIndex(data[0]) else { return Self.native(.fileNotFound) }
        let file = files[index]
        let grant: Grant
        switch self.grant([file.access.write, file.access.readWrite]) {
        case .success(let granted): grant = granted
        case .failure(let status): return Self.native(status)
        }
        let mode = grant == .key ? file.mode : .plain
        switch open(ins: 0x8D, data, headerLength: 7, mode: mode) {
        case .failure(let status): return Self.native(status)
        case .success(let parts):
            let offset = NTAG424File.number(parts.header[1..<4])
            let length = NTAG424File.number(parts.header[4..<7])
            guard length == parts.body.count, length > 0 else { return Self.native(.lengthError) }
            guard offset + length <= file.contents.count else { return Self.native(.boundaryError) }
            files[index].contents.replaceSubrange(offset..<offset + length, with: parts.body)
            return seal([], mode: mode, writes: true)
        }
    }

    /// ChangeKey (`C4`, §10.6.1): KeyNo, then in full mode under key 0 either NewKey ‖ KeyVer
    /// (key 0 itself: the session ends, the answer carries no MAC) or (NewKey ⊕ OldKey) ‖ KeyVer ‖
    /// CRC32(NewKey).
    mutating func changeKey(_ data: [UInt8]) -> SimResponseAPDU {
        guard let keyNumber = data.first else { return Self.native(.lengthError) }
        // Any ChangeKey needs the application master key (Table 63: AUTHENTICATION_ERROR otherwise).
        guard let session, session.keyNumber == 0 else { return Self.native(.authenticationError) }
        guard Int(keyNumber) < keys.count else { return Self.native(.noSuchKey) }
        switch open(ins: 0xC4, data, headerLength: 1, mode: .full) {
        case .failure(let status): return Self.native(status)
        case .success(let parts):
            let body = parts.body
            if keyNumber == 0 {
                guard body.count == 17 else { return Self.native(.lengthError) }
                keys[0] = Key(value: Array(body[0..<16]), version: body[16])
                self.session = nil
                return Self.native(.ok, writes: true)
            }
            guard body.count == 21 else { return Self.native(.lengthError) }
            let newKey = zip(body[0..<16], keys[Int(keyNumber)].value).map { $0 ^ $1 }
            guard Array(body[17..<21]) == Self.crc32(newKey) else { return Self.native(.integrityError) }
            keys[Int(keyNumber)] = Key(value: newKey, version: body[16])
            return seal([], mode: .full, writes: true)
        }
    }

    /// GetKeyVersion (`64`, §10.6.2): KeyNo; MAC mode inside a session.
    mutating func getKeyVersion(_ data: [UInt8]) -> SimResponseAPDU {
        let mode: NTAG424File.CommunicationMode = session == nil ? .plain : .mac
        switch open(ins: 0x64, data, headerLength: 1, mode: mode) {
        case .failure(let status): return Self.native(status)
        case .success(let parts):
            guard parts.body.isEmpty else { return Self.native(.lengthError) }
            guard Int(parts.header[0]) < keys.count else { return Self.native(.noSuchKey) }
            return seal([keys[Int(parts.header[0])].version], mode: mode)
        }
    }

    /// GetCardUID (`51`, §10.5.3): the UID, in full mode, to an authenticated reader only.
    mutating func getCardUID(_ data: [UInt8]) -> SimResponseAPDU {
        guard session != nil else { return Self.native(.authenticationError) }
        switch open(ins: 0x51, data, headerLength: 0, mode: .full) {
        case .failure(let status): return Self.native(status)
        case .success(let parts):
            guard parts.body.isEmpty else { return Self.native(.lengthError) }
            return seal(uid, mode: .full)
        }
    }

    /// Read_Sig (`3C`, address `00`; NT4H2421Gx, originality check): the 56-byte originality
    /// signature, at the PICC level or in the application; in a session enciphered (full mode),
    /// else plain, answered `91 90` (``Status/signatureOK``). Another address is a parameter error.
    mutating func readSignature(_ data: [UInt8]) -> SimResponseAPDU {
        switch open(ins: 0x3C, data, headerLength: 1, mode: session == nil ? .plain : .full) {
        case .failure(let status): return Self.native(status)
        case .success(let parts):
            guard parts.body.isEmpty else { return Self.native(.lengthError) }
            guard parts.header == [0x00] else { return Self.native(.parameterError) }
            return seal(
                originalitySignature ?? OriginalityTestKey.signature(of: uid), mode: session == nil ? .plain : .full, status: .signatureOK)
        }
    }

    /// GetFileCounters (`F6`, §10.7.3): SDMReadCtr (3 bytes) and two reserved bytes, under
    /// SDMCtrRet (full mode with a key, plain when free).
    mutating func getFileCounters(_ data: [UInt8]) -> SimResponseAPDU {
        guard let number = data.first else { return Self.native(.lengthError) }
        guard let index = fileIndex(number) else { return Self.native(.fileNotFound) }
        guard let sdm = files[index].sdm else { return Self.native(.permissionDenied) }
        let grant: Grant
        switch self.grant([sdm.counterRetrievalKey]) {
        case .success(let granted): grant = granted
        case .failure(let status): return Self.native(status)
        }
        let mode: NTAG424File.CommunicationMode = grant == .key ? .full : .plain
        switch open(ins: 0xF6, data, headerLength: 1, mode: mode) {
        case .failure(let status): return Self.native(status)
        case .success(let parts):
            guard parts.body.isEmpty else { return Self.native(.lengthError) }
            return seal(NTAG424File.threeBytes(Int(files[index].readCounter)) + [0x00, 0x00], mode: mode)
        }
    }

    /// CRC32 as DESFire uses it (IEEE 802.3 polynomial, reflected, preset `FFFFFFFF`, no final
    /// inversion), least significant byte first.
    static func crc32(_ bytes: [UInt8]) -> [UInt8] {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return [
            UInt8(truncatingIfNeeded: crc), UInt8(truncatingIfNeeded: crc >> 8), UInt8(truncatingIfNeeded: crc >> 16),
            UInt8(truncatingIfNeeded: crc >> 24),
        ]
    }
}
