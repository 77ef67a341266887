/// PICC-level commands: selecting, listing, creating and deleting applications, formatting, free
/// memory and the UID (MIFARE DESFire EV1 short data sheet MF3ICDx21_41_81 §9; AN12343 §10).
extension DESFireCard {
    /// SelectApplication (`5A`): AID, `000000` the PICC level. Always plain; it ends the session
    /// and aborts the transaction. Unknown: APPLICATION_NOT_FOUND, the selection unchanged.
    mutating func selectApplication(_ data: [UInt8]) -> DESFireAnswer {
        guard data.count == 3 else { return DESFireAnswer(.lengthError) }
        if data == [0, 0, 0] {
            enter(nil)
            return DESFireAnswer()
        }
        guard let index = applications.firstIndex(where: { $0.aid == data }) else { return DESFireAnswer(.applicationNotFound) }
        enter(index)
        return DESFireAnswer()
    }

    /// Moves to a level: no session, no current file, the transaction aborted.
    mutating func enter(_ index: Int?) {
        selected = index
        currentFile = nil
        session = nil
        discardTransaction()
    }

    /// GetApplicationIDs (`6A`, PICC level): 3 bytes per application, free when the PICC key
    /// settings allow listing (bit 1), else under the PICC master key.
    mutating func getApplicationIDs(_ data: [UInt8]) -> DESFireAnswer {
        guard selected == nil else { return DESFireAnswer(.permissionDenied) }
        if let refused = requireMaster(unless: piccKeySettings & 0x02 != 0) { return DESFireAnswer(refused) }
        switch open(ins: 0x6A, data, headerLength: 0, mode: managementMode) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let parts):
            guard parts.body.isEmpty else { return DESFireAnswer(.lengthError) }
            return seal(applications.flatMap(\.aid), mode: managementMode)
        }
    }

    /// GetDFNames (`6D`, PICC level): one frame per application with ISO identifiers — its AID,
    /// ISO FID (least significant byte first) and DF name — behind `AF` until the last, under the
    /// same conditions as the list; inside a session the last frame carries the MAC over all.
    mutating func getDFNames(_ data: [UInt8]) -> DESFireAnswer {
        guard selected == nil else { return DESFireAnswer(.permissionDenied) }
        if let refused = requireMaster(unless: piccKeySettings & 0x02 != 0) { return DESFireAnswer(refused) }
        switch open(ins: 0x6D, data, headerLength: 0, mode: managementMode) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let parts):
            guard parts.body.isEmpty else { return DESFireAnswer(.lengthError) }
            var entries = applications.compactMap { app -> [UInt8]? in
                guard let id = app.isoID, let name = app.dfName else { return nil }
                return app.aid + [UInt8(id & 0xFF), UInt8(id >> 8)] + name
            }
            if var current = session {
                let plain = entries.flatMap { $0 }
                switch current.wrap(plain, mode: managementMode) {
                case .failure(let status): return DESFireAnswer(status)
                case .success(let wrapped):
                    session = current
                    if entries.isEmpty { entries = [[]] }
                    entries[entries.count - 1] += wrapped.suffix(wrapped.count - plain.count)
                }
            }
            return frames(entries)
        }
    }

    /// Answers that go one per frame: the first now, behind `AF` when more follow.
    mutating func frames(_ entries: [[UInt8]]) -> DESFireAnswer {
        guard let first = entries.first else { return DESFireAnswer() }
        guard entries.count > 1 else { return DESFireAnswer(first, .ok) }
        pending = .frames(Array(entries.dropFirst()))
        return DESFireAnswer(first, .additionalFrame)
    }

    /// CreateApplication (`CA`, PICC level): AID, KeySett1, KeySett2 (crypto method in bits 7–6:
    /// `00` DES/2K3DES, `01` 3K3DES, `10` AES; ISO identifiers in bit 5; 1–14 keys), then with bit 5 the ISO DF
    /// identifier (least significant byte first) and optionally a DF name of up to 16 bytes. Free
    /// when the PICC key settings allow it (bit 2), else under the PICC master key. Its keys start
    /// as the default key (zeros, or SetConfiguration option `01`'s).
    mutating func createApplication(_ data: [UInt8]) -> DESFireAnswer {
        guard selected == nil else { return DESFireAnswer(.permissionDenied) }
        if let refused = requireMaster(unless: piccKeySettings & 0x04 != 0) { return DESFireAnswer(refused) }
        switch open(ins: 0xCA, data, headerLength: 0, mode: managementMode) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let parts):
            let body = parts.body
            guard body.count >= 5 else { return DESFireAnswer(.lengthError) }
            let aid = Array(body[0..<3])
            let settings2 = body[4]
            let keyCount = Int(settings2 & 0x0F)
            guard aid != [0, 0, 0], let keyType = DESFireKeyType(methodBits: settings2), settings2 & 0x10 == 0,
                (1...Self.maximumKeys).contains(keyCount)
            else {
                return DESFireAnswer(.parameterError)
            }
            var isoID: UInt16?
            var name: [UInt8]?
            if settings2 & 0x20 != 0 {
                guard body.count >= 7, body.count <= 7 + 16 else { return DESFireAnswer(.lengthError) }
                isoID = UInt16(body[6]) << 8 | UInt16(body[5])
                if body.count > 7 { name = Array(body[7...]) }
            } else if body.count != 5 {
                return DESFireAnswer(.lengthError)
            }
            guard !applications.contains(where: { $0.aid == aid }) else { return DESFireAnswer(.duplicateError) }
            if let isoID, applications.contains(where: { $0.isoID == isoID }) { return DESFireAnswer(.duplicateError) }
            if let name, applications.contains(where: { $0.dfName == name }) { return DESFireAnswer(.duplicateError) }
            guard applications.count < Self.maximumApplications else { return DESFireAnswer(.countError) }
            var application = DESFireApplication(
                aid: aid, keySettings: body[3], keyCount: keyCount, keyType: keyType, isoID: isoID, dfName: name)
            application.keys = Array(repeating: newApplicationKey(keyType), count: keyCount)
            applications.append(application)
            return seal([], mode: managementMode, writes: true)
        }
    }

    /// DeleteApplication (`DA`): AID, under the PICC master key, or under the application's own
    /// master key while it is selected (the card then returns to the PICC level).
    mutating func deleteApplication(_ data: [UInt8]) -> DESFireAnswer {
        guard masterKeyAuthenticated else { return DESFireAnswer(.authenticationError) }
        switch open(ins: 0xDA, data, headerLength: 0, mode: managementMode) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let parts):
            guard parts.body.count == 3 else { return DESFireAnswer(.lengthError) }
            guard let index = applications.firstIndex(where: { $0.aid == parts.body }) else {
                return DESFireAnswer(.applicationNotFound)
            }
            if let selected, selected != index { return DESFireAnswer(.permissionDenied) }
            var answer = seal([], mode: managementMode, writes: true)
            applications.remove(at: index)
            if selected != nil { enter(nil) }
            answer.writes = true
            return answer
        }
    }

    /// FormatPICC (`FC`, PICC level, PICC master key): every application and file is gone;
    /// `9D` once SetConfiguration disabled it.
    mutating func formatPICC(_ data: [UInt8]) -> DESFireAnswer {
        guard selected == nil else { return DESFireAnswer(.permissionDenied) }
        guard masterKeyAuthenticated else { return DESFireAnswer(.authenticationError) }
        guard !formatDisabled else { return DESFireAnswer(.permissionDenied) }
        switch open(ins: 0xFC, data, headerLength: 0, mode: managementMode) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let parts):
            guard parts.body.isEmpty else { return DESFireAnswer(.lengthError) }
            applications = []
            return seal([], mode: managementMode, writes: true)
        }
    }

    /// FreeMemory (`6E`): the free bytes, 3 bytes least significant first; free.
    mutating func getFreeMemory(_ data: [UInt8]) -> DESFireAnswer {
        switch open(ins: 0x6E, data, headerLength: 0, mode: managementMode) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let parts):
            guard parts.body.isEmpty else { return DESFireAnswer(.lengthError) }
            return seal(NTAG424File.threeBytes(freeMemory), mode: managementMode)
        }
    }

    /// Read_Sig (`3C`, address `00`; MIFARE DESFire EV2 and EV3 — an EV1 has no originality
    /// signature and answers `1C`): the 56-byte originality signature (ECDSA on P-224 over the
    /// UID, AN12343's originality check), plain outside a session, enciphered in one. Signed with
    /// the simulator's test key (`OriginalityTestKey`) unless the image records another.
    /// Answered `90` (``DESFireStatus/signatureOK``), as the chips do.
    mutating func readSignature(_ data: [UInt8]) -> DESFireAnswer {
        guard model.hasEV2SecureMessaging else { return DESFireAnswer(.illegalCommand) }
        let mode: NTAG424File.CommunicationMode = session == nil ? .plain : .full
        switch open(ins: 0x3C, data, headerLength: 1, mode: mode) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let parts):
            guard parts.body.isEmpty else { return DESFireAnswer(.lengthError) }
            guard parts.header == [0x00] else { return DESFireAnswer(.parameterError) }
            return seal(originalitySignature ?? OriginalityTestKey.signature(of: uid), mode: mode, status: .signatureOK)
        }
    }

    /// GetCardUID (`51`): the UID, encrypted, to an authenticated reader only.
    mutating func getCardUID(_ data: [UInt8]) -> DESFireAnswer {
        guard session != nil else { return DESFireAnswer(.authenticationError) }
        switch open(ins: 0x51, data, headerLength: 0, mode: .full) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let parts):
            guard parts.body.isEmpty else { return DESFireAnswer(.lengthError) }
            return seal(uid, mode: .full)
        }
    }
}
