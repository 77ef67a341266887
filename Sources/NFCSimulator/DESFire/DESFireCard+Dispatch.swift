/// Framing and dispatch: native frames, ISO/IEC 7816-4 wrapped native commands (CLA `90`) and
/// the ISO commands (CLA `00`).
extension DESFireCard {
    /// One answer as sent, with what it cost.
    struct Reply: Sendable, Hashable {
        var bytes: [UInt8]
        var writesMemory = false
        var additionalProcessingTime: Duration = .zero
    }

    /// Answers one frame. A frame starting `90` that parses as an APDU with P1 = P2 = `00` is a
    /// wrapped native command, `00` an ISO command; anything else is a native frame (no DESFire
    /// command code is `00` or `90`; EV1 short data sheet §9).
    mutating func handle(_ bytes: [UInt8]) -> Reply {
        guard let first = bytes.first else {
            pending = nil
            return Reply(bytes: [DESFireStatus.lengthError.rawValue])
        }
        if first == 0x90 || first == 0x00 {
            guard let command = try? SimCommandAPDU(bytes: bytes), !command.isExtended else {
                pending = nil
                return Reply(bytes: SimStatusWord.wrongLength.bytes)
            }
            if first == 0x00 {
                pending = nil
                let response = iso(command)
                if response.status != .success { session = nil }
                return Reply(
                    bytes: response.bytes, writesMemory: response.writesMemory,
                    additionalProcessingTime: response.additionalProcessingTime)
            }
            guard command.p1 == 0, command.p2 == 0 else {
                pending = nil
                return Reply(bytes: SimStatusWord.incorrectP1P2.bytes)
            }
            let answer = run(command.ins, command.data)
            return Reply(
                bytes: answer.data + [0x91, answer.status.rawValue], writesMemory: answer.writes,
                additionalProcessingTime: answer.writes ? Self.writeTime : .zero)
        }
        let answer = run(first, Array(bytes.dropFirst()))
        return Reply(
            bytes: [answer.status.rawValue] + answer.data, writesMemory: answer.writes,
            additionalProcessingTime: answer.writes ? Self.writeTime : .zero)
    }

    /// Runs a native command; an error ends the session and whatever was pending (EV1 short data
    /// sheet §9: an error resets the authentication state; AN12343 §5.5 for EV2 sessions).
    mutating func run(_ ins: UInt8, _ data: [UInt8]) -> DESFireAnswer {
        let answer: DESFireAnswer
        if model == .ev1, data.count > Self.frameLimit {
            // EV1 takes frames of 64 bytes: a command's data beyond them goes on in `AF` frames.
            pending = nil
            answer = DESFireAnswer(.lengthError)
        } else if ins == 0xAF {
            if let waiting = pending {
                pending = nil
                answer = continueFrame(waiting, data)
            } else {
                answer = DESFireAnswer(.illegalCommand)
            }
        } else {
            pending = nil
            answer = command(ins, data)
        }
        if answer.status != .ok, answer.status != .additionalFrame, answer.status != .noChanges, answer.status != .signatureOK {
            session = nil
            pending = nil
        }
        return answer
    }

    /// A native command by its code (EV1 short data sheet §9, Table "command set").
    private mutating func command(_ ins: UInt8, _ data: [UInt8]) -> DESFireAnswer {
        switch ins {
        case 0x60: return getVersion(data)
        case 0x0A, 0x1A, 0xAA: return beginEV1Authentication(ins, data)
        case 0x71, 0x77:
            guard model.hasEV2SecureMessaging else { return DESFireAnswer(.illegalCommand) }
            return beginAuthentication(first: ins == 0x71, data)
        case 0x5A: return selectApplication(data)
        case 0x6A: return getApplicationIDs(data)
        case 0x6D: return getDFNames(data)
        case 0xCA: return createApplication(data)
        case 0xDA: return deleteApplication(data)
        case 0xFC: return formatPICC(data)
        case 0x5C: return setConfiguration(data)
        case 0x6E: return getFreeMemory(data)
        case 0x51: return getCardUID(data)
        case 0x3C: return readSignature(data)
        case 0x45: return getKeySettings(data)
        case 0x54: return changeKeySettings(data)
        case 0xC4: return changeKey(data)
        case 0x64: return getKeyVersion(data)
        case 0x6F: return getFileIDs(data)
        case 0x61: return getISOFileIDs(data)
        case 0xF5: return getFileSettings(data)
        case 0x5F: return changeFileSettings(data)
        case 0xCD, 0xCB: return createDataFile(data, backup: ins == 0xCB)
        case 0xCC: return createValueFile(data)
        case 0xC1, 0xC0: return createRecordFile(data, cyclic: ins == 0xC0)
        case 0xDF: return deleteFile(data)
        case 0xBD, 0xAD: return readData(ins, data)
        case 0x3D, 0x8D, 0x3B, 0x8B:
            if let expected = continuedLength(ins, data), data.count < expected {
                pending = .command(ins: ins, received: data, expected: expected)
                return DESFireAnswer(.additionalFrame)
            }
            return ins == 0x3D || ins == 0x8D ? writeData(ins, data) : writeRecord(ins, data)
        case 0x6C: return getValue(data)
        case 0x0C, 0xDC, 0x1C: return changeValue(ins, data)
        case 0xBB, 0xAB: return readRecords(ins, data)
        case 0xEB: return clearRecordFile(data)
        case 0xC7: return commitTransaction(data)
        case 0xA7: return abortTransaction(data)
        default: return DESFireAnswer(.illegalCommand)
        }
    }

    /// The next frame of a multi-frame exchange.
    private mutating func continueFrame(_ waiting: Pending, _ data: [UInt8]) -> DESFireAnswer {
        switch waiting {
        case .version(let part):
            guard data.isEmpty else { return DESFireAnswer(.lengthError) }
            if part == 1 {
                pending = .version(part: 2)
                return DESFireAnswer(model.versionParts[1], .additionalFrame)
            }
            // Inside a session the last frame is MACed over all three (AN12343 §10.5.1; NT4H2421Gx Table 22 note 1).
            // With the random ID on, the UID field is zeros: only GetCardUID gives the real one.
            let shownUID = randomIDEnabled ? [UInt8](repeating: 0, count: 7) : uid
            let all = model.versionParts[0] + model.versionParts[1] + shownUID + DESFireModel.productionData
            var answer = seal(all, mode: managementMode)
            if answer.status == .ok { answer.data.removeFirst(14) }
            return answer
        case .authentication(let keyNumber, let rndB, let first, let capabilities):
            return finishAuthentication(keyNumber: keyNumber, rndB: rndB, first: first, pcdCapabilities: capabilities, data)
        case .ev1Authentication(let ins, let keyNumber, let rndB, let iv):
            return finishEV1Authentication(ins: ins, keyNumber: keyNumber, rndB: rndB, iv: iv, data)
        case .response(let rest, let status):
            guard data.isEmpty else { return DESFireAnswer(.lengthError) }
            return chunked(rest, status: status)
        case .frames(let rest):
            guard data.isEmpty else { return DESFireAnswer(.lengthError) }
            return frames(rest)
        case .command(let ins, let received, let expected):
            let all = received + data
            guard !data.isEmpty, all.count <= expected else { return DESFireAnswer(.lengthError) }
            guard all.count == expected else {
                pending = .command(ins: ins, received: all, expected: expected)
                return DESFireAnswer(.additionalFrame)
            }
            return ins == 0x3D || ins == 0x8D ? writeData(ins, all) : writeRecord(ins, all)
        }
    }

    /// GetVersion (`60`): three frames, hardware, software, then UID and production data.
    private mutating func getVersion(_ data: [UInt8]) -> DESFireAnswer {
        switch open(ins: 0x60, data, headerLength: 0, mode: managementMode) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let parts): guard parts.body.isEmpty else { return DESFireAnswer(.lengthError) }
        }
        pending = .version(part: 1)
        return DESFireAnswer(model.versionParts[0], .additionalFrame)
    }

    /// An answer longer than one frame: ``frameLimit`` bytes behind `AF`, the rest on `AF`
    /// (EV1 short data sheet §9: answers continue in frames of up to 59 bytes).
    mutating func chunked(_ data: [UInt8], writes: Bool = false, status: DESFireStatus = .ok) -> DESFireAnswer {
        guard data.count > Self.frameLimit else { return DESFireAnswer(data, status, writes: writes) }
        pending = .response(rest: Array(data.dropFirst(Self.frameLimit)), status: status)
        return DESFireAnswer(Array(data.prefix(Self.frameLimit)), .additionalFrame, writes: writes)
    }

    /// The most data one frame carries, answer or (on EV1) command.
    static let frameLimit = 59

    /// How many data bytes a WriteData or WriteRecord needs in all, from its header: the 7 bytes
    /// of FileNo, Offset and Length, then the data as the file's mode sends it (plain: Length;
    /// MAC: 8 more; full: padded to whole blocks, then the MAC). A shorter frame is the first of
    /// several, the rest coming in `AF` frames (EV1 short data sheet §9: commands longer than a
    /// frame continue with ADDITIONAL_FRAME); `nil` when the header is incomplete or the file
    /// refuses, so the command itself answers the error.
    func continuedLength(_ ins: UInt8, _ data: [UInt8]) -> Int? {
        guard data.count >= 7, let selected, let index = applications[selected].fileIndex(data[0]) else { return nil }
        let file = applications[selected].files[index]
        guard case .success(let grant) = self.grant([file.access.write, file.access.readWrite]) else { return nil }
        let offset = NTAG424File.number(data[1..<4])
        let length = NTAG424File.number(data[4..<7])
        // Past the file or the record: the command itself answers BOUNDARY_ERROR, nothing buffered.
        let room: Int
        switch file.kind {
        case .standard, .backup: room = file.contents.count
        case .linearRecord(let records), .cyclicRecord(let records): room = records.recordSize
        case .value: return nil
        }
        guard length > 0, offset <= room, length <= room - offset else { return nil }
        let mode = session == nil || grant == .free ? NTAG424File.CommunicationMode.plain : file.mode
        switch (mode, session) {
        case (.plain, _), (_, nil): return 7 + length
        case (.mac, .ev2?): return 7 + length + 8
        case (.full, .ev2?): return 7 + (length / 16 + 1) * 16 + 8
        case (.mac, .ev1(let ev1)?): return 7 + length + (ev1.legacy ? 4 : 8)
        case (.full, .ev1(let ev1)?):
            let block = ev1.cipher.blockSize
            let crc = ev1.legacy ? 2 : 4
            return 7 + (length + crc + block - 1) / block * block
        }
    }
}
