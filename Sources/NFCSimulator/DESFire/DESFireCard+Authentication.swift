/// Access conditions, secure messaging and AuthenticateEV2First/NonFirst on the card side.
extension DESFireCard {
    /// How a command's access was granted: a free condition (`E`, plain communication whatever the
    /// file's mode) or the session's key (the file's mode).
    enum Grant {
        case free
        case key
    }

    /// Which of `conditions` the current state meets: the session's key, else a free condition.
    /// None met: PERMISSION_DENIED when every condition is `F`, AUTHENTICATION_ERROR otherwise.
    func grant(_ conditions: [UInt8]) -> Result<Grant, DESFireStatus> {
        if let session, conditions.contains(session.keyNumber) { return .success(.key) }
        if conditions.contains(0x0E) { return .success(.free) }
        return .failure(conditions.allSatisfy { $0 == 0x0F } ? .permissionDenied : .authenticationError)
    }

    /// Whether the session is the selected level's master key (key `00`).
    var masterKeyAuthenticated: Bool { session?.keyNumber == 0 }

    /// Checks a management command's access: the level's master key, or nobody when `free`.
    func requireMaster(unless free: Bool) -> DESFireStatus? {
        free || masterKeyAuthenticated ? nil : .authenticationError
    }

    /// Removes a command's secure messaging (nothing outside a session; an EV1 session's IV moves
    /// on even in plain mode).
    /// `bodyLength`, when the command says it, is where an enciphered body ends (EV1 and legacy
    /// sessions check their CRC there); `endMarker`, that it ends before `CRC ‖ 80 00…` instead
    /// (``CheckedPadding``: data no field measures, SetConfiguration's ATS).
    mutating func open(
        ins: UInt8, _ data: [UInt8], headerLength: Int, mode: NTAG424File.CommunicationMode, bodyLength: Int? = nil,
        endMarker: Bool = false
    ) -> Result<(header: [UInt8], body: [UInt8]), DESFireStatus> {
        guard var current = session else {
            guard data.count >= headerLength else { return .failure(.lengthError) }
            return .success((Array(data.prefix(headerLength)), Array(data.dropFirst(headerLength))))
        }
        let result = current.unwrap(ins: ins, data, headerLength: headerLength, mode: mode, bodyLength: bodyLength, endMarker: endMarker)
        session = current
        return result
    }

    /// A successful answer, protected when a session is open, split into frames.
    mutating func seal(
        _ data: [UInt8], mode: NTAG424File.CommunicationMode, writes: Bool = false, status: DESFireStatus = .ok
    ) -> DESFireAnswer {
        guard var current = session else { return chunked(data, writes: writes, status: status) }
        switch current.wrap(data, mode: mode, status: status.rawValue) {
        case .failure(let failure): return DESFireAnswer(failure)
        case .success(let wrapped):
            session = current
            return chunked(wrapped, writes: writes, status: status)
        }
    }

    /// The mode of a write's answer: a legacy session answers WriteData, Credit, Debit,
    /// LimitedCredit and WriteRecord in MAC mode without a MAC (proxmark3 expects answer MACs of
    /// ReadData, ReadRecords and GetValue only).
    func writeAnswerMode(_ mode: NTAG424File.CommunicationMode) -> NTAG424File.CommunicationMode {
        if case .ev1(let current)? = session, current.legacy, mode == .mac { return .plain }
        return mode
    }

    /// The communication mode of a management command inside a session: MAC in an EV2 session
    /// (AN12343 §10: the command/response pairs that carry no file data are MACed once
    /// authenticated); plain in an EV1 session, whose answers carry a CMAC all the same, and in a
    /// legacy one.
    var managementMode: NTAG424File.CommunicationMode { session?.isEV2 == true ? .mac : .plain }

    /// AuthenticateEV2First (`71`: KeyNo, LenCap, PCDcap2) or NonFirst (`77`: KeyNo): the card
    /// answers E(Kx, RndB) with IV zero behind `AF` (AN12343 §6.6, NT4H2421Gx §9.1.5–§9.1.6).
    /// A new authentication aborts the transaction in progress.
    mutating func beginAuthentication(first: Bool, _ data: [UInt8]) -> DESFireAnswer {
        var capabilities: [UInt8] = []
        if first {
            guard data.count >= 2, data.count == 2 + Int(data[1]), data[1] <= 6 else { return DESFireAnswer(.lengthError) }
            capabilities = Array(data.dropFirst(2))
        } else {
            guard data.count == 1 else { return DESFireAnswer(.lengthError) }
            guard session?.isEV2 == true else { return DESFireAnswer(.permissionDenied) }
        }
        let keyNumber = data[0] & 0x3F
        guard Int(keyNumber) < levelKeys.count else { return DESFireAnswer(.noSuchKey) }
        // EV2 authentication is AES only (AN12343 §6.6).
        guard levelKeyType == .aes else { return DESFireAnswer(.authenticationError) }
        if first { session = nil }
        discardTransaction()
        let rndB = random(16)
        guard let encrypted = NTAG424Cipher.cbc(rndB, key: levelKeys[Int(keyNumber)].value, decrypt: false) else {
            return DESFireAnswer(.integrityError)
        }
        pending = .authentication(keyNumber: keyNumber, rndB: rndB, first: first, pcdCapabilities: capabilities)
        return DESFireAnswer(encrypted, .additionalFrame)
    }

    /// The second frame, E(Kx, RndA ‖ RndB'): the card checks RndB', derives the session keys and
    /// answers E(Kx, TI ‖ RndA' ‖ PDcap2 ‖ PCDcap2) (First: CmdCtr zero) or E(Kx, RndA') (NonFirst:
    /// TI and CmdCtr kept).
    mutating func finishAuthentication(
        keyNumber: UInt8, rndB: [UInt8], first: Bool, pcdCapabilities: [UInt8], _ data: [UInt8]
    ) -> DESFireAnswer {
        guard data.count == 32 else { return DESFireAnswer(.lengthError) }
        let key = levelKeys[Int(keyNumber)].value
        guard let plain = NTAG424Cipher.cbc(data, key: key, decrypt: true) else { return DESFireAnswer(.integrityError) }
        let rndA = Array(plain[0..<16])
        guard Array(plain[16..<32]) == Array(rndB.dropFirst()) + [rndB[0]] else { return DESFireAnswer(.authenticationError) }
        guard let derived = NTAG424Cipher.sessionKeys(key: key, rndA: rndA, rndB: rndB) else { return DESFireAnswer(.integrityError) }
        let rotatedA = Array(rndA.dropFirst()) + [rndA[0]]
        let answer: [UInt8]
        if first {
            let ti = random(4)
            session = .ev2(EV2CardSession(keyNumber: keyNumber, encryption: derived.encryption, mac: derived.mac, ti: ti, counter: 0))
            let pcd = Array((pcdCapabilities + [UInt8](repeating: 0, count: 6)).prefix(6))
            answer = ti + rotatedA + [UInt8](repeating: 0, count: 6) + pcd
        } else {
            guard case .ev2(let previous) = session else { return DESFireAnswer(.permissionDenied) }
            session = .ev2(
                EV2CardSession(
                    keyNumber: keyNumber, encryption: derived.encryption, mac: derived.mac, ti: previous.ti, counter: previous.counter))
            answer = rotatedA
        }
        guard let encrypted = NTAG424Cipher.cbc(answer, key: key, decrypt: false) else { return DESFireAnswer(.integrityError) }
        return DESFireAnswer(encrypted, .ok)
    }
}
