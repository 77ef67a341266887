/// EV2 secure messaging on the card side (data sheet NT4H2421Gx §9.1.4–§9.1.9) and the
/// authentication that opens a session.
extension NTAG424Tag {
    /// How a command's access conditions were met: by a free condition (`E`, plain
    /// communication whatever the file says, §8.2.3.3) or by the authenticated key.
    enum Grant {
        case free
        case key
    }

    /// Which of `conditions` the current state meets: the session's key, else a free condition.
    /// None met: PERMISSION_DENIED when every condition is `F` (never), AUTHENTICATION_ERROR when
    /// a key would do but is not the session's (data sheet Table 80, ReadData's return codes).
    func grant(_ conditions: [UInt8]) -> Result<Grant, Status> {
        if let session, conditions.contains(session.keyNumber) { return .success(.key) }
        if conditions.contains(0x0E) { return .success(.free) }
        return .failure(conditions.allSatisfy { $0 == 0x0F } ? .permissionDenied : .authenticationError)
    }

    /// The read conditions of a file: Read and ReadWrite, and outside a session SDMFileRead, which
    /// grants free reading of an SDM file (data sheet §8.2.3.3, Table 9).
    func readConditions(_ file: NTAG424File) -> [UInt8] {
        var conditions = [file.access.read, file.access.readWrite]
        if session == nil, let sdm = file.sdm, sdm.fileReadKey <= 4 { conditions.append(0x0E) }
        return conditions
    }

    /// CmdCtr least significant byte first.
    static func counterBytes(_ counter: UInt16) -> [UInt8] {
        [UInt8(truncatingIfNeeded: counter), UInt8(truncatingIfNeeded: counter >> 8)]
    }

    /// Checks and removes a command's secure messaging. `headerLength` bytes stay in the clear; in
    /// MAC and full mode the last 8 bytes are MACt(SesAuthMACKey, Cmd ‖ CmdCtr ‖ TI ‖ header ‖
    /// data), and in full mode the data is E(SesAuthENCKey, IV = E(A5 5A ‖ TI ‖ CmdCtr ‖ 0…),
    /// padded) (§9.1.9, §9.1.10). In LRP mode the MAC is CMAC_LRP's and the data LRICB at EncCtr,
    /// which steps per block (§9.2.3, §9.2.4). Outside a session, or in plain mode, nothing is checked.
    mutating func open(
        ins: UInt8, _ data: [UInt8], headerLength: Int, mode: NTAG424File.CommunicationMode
    ) -> Result<(header: [UInt8], body: [UInt8]), Status> {
        guard data.count >= headerLength else { return .failure(.lengthError) }
        let header = Array(data.prefix(headerLength))
        guard var session, mode != .plain else { return .success((header, Array(data.dropFirst(headerLength)))) }
        guard data.count >= headerLength + 8 else { return .failure(.lengthError) }
        let protected = Array(data[headerLength..<data.count - 8])
        let input = [ins] + Self.counterBytes(session.counter) + session.ti + header + protected
        guard let expected = Self.mac(input, session: session), expected == Array(data.suffix(8)) else {
            return .failure(.integrityError)
        }
        guard mode == .full, !protected.isEmpty else { return .success((header, protected)) }
        guard protected.count % 16 == 0 else { return .failure(.integrityError) }
        let padded: [UInt8]?
        if let lrp = session.lrp {
            var counter = Self.encryptionCounterBytes(session.encryptionCounter)
            padded = lrp.lricb(protected, updatedKey: 1, counter: &counter, decrypt: true)
            session.encryptionCounter &+= UInt32(protected.count / 16)
            self.session = session
        } else {
            padded = NTAG424Cipher.iv(label: [0xA5, 0x5A], ti: session.ti, counter: session.counter, key: session.encryption).flatMap {
                NTAG424Cipher.cbc(protected, key: session.encryption, iv: $0, decrypt: true)
            }
        }
        guard let padded, let plain = NTAG424Cipher.unpad(padded) else { return .failure(.integrityError) }
        return .success((header, plain))
    }

    /// A session's MACt: the odd-numbered bytes of AES-CMAC under SesAuthMACKey, or of CMAC_LRP
    /// under the LRP session's updated key 0 (§9.1.3, §9.2.3).
    static func mac(_ input: [UInt8], session: Session) -> [UInt8]? {
        guard let lrp = session.lrp else { return NTAG424Cipher.truncatedMAC(input, key: session.mac) }
        guard let full = lrp.cmac(input) else { return nil }
        return stride(from: 1, to: 16, by: 2).map { full[$0] }
    }

    /// EncCtr as LRICB takes it: 4 bytes, most significant first (§9.2.4).
    static func encryptionCounterBytes(_ value: UInt32) -> [UInt8] {
        [
            UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value),
        ]
    }

    /// A successful answer under secure messaging: CmdCtr steps, then in MAC mode the data gains
    /// MACt(SesAuthMACKey, RC ‖ CmdCtr ‖ TI ‖ data), in full mode the data is first encrypted
    /// with IV = E(5A A5 ‖ TI ‖ CmdCtr ‖ 0…) (§9.1.9, §9.1.10), or in LRP mode LRICB-enciphered
    /// at EncCtr (§9.2.4). RC is `status`, `00` but for Read_Sig. Outside a session, plain data.
    mutating func seal(_ data: [UInt8], mode: NTAG424File.CommunicationMode, writes: Bool = false, status: Status = .ok) -> SimResponseAPDU
    {
        guard var current = session else { return finish(data, writes: writes, status: status) }
        guard current.counter < 0xFFFF else {
            session = nil
            return Self.native(.commandAborted)
        }
        current.counter += 1
        session = current
        guard mode != .plain else { return finish(data, writes: writes, status: status) }
        var payload = data
        if mode == .full, !data.isEmpty {
            let encrypted: [UInt8]?
            if let lrp = current.lrp {
                var counter = Self.encryptionCounterBytes(current.encryptionCounter)
                encrypted = lrp.lricb(NTAG424Cipher.pad(data), updatedKey: 1, counter: &counter, decrypt: false)
                current.encryptionCounter &+= UInt32((data.count / 16) + 1)
                session = current
            } else {
                encrypted = NTAG424Cipher.iv(label: [0x5A, 0xA5], ti: current.ti, counter: current.counter, key: current.encryption).flatMap
                {
                    NTAG424Cipher.cbc(NTAG424Cipher.pad(data), key: current.encryption, iv: $0, decrypt: false)
                }
            }
            guard let encrypted else { return Self.native(.integrityError) }
            payload = encrypted
        }
        guard let mac = Self.mac([status.rawValue] + Self.counterBytes(current.counter) + current.ti + payload, session: current)
        else { return Self.native(.integrityError) }
        return finish(payload + mac, writes: writes, status: status)
    }

    private mutating func finish(_ data: [UInt8], writes: Bool, status: Status) -> SimResponseAPDU {
        var response = chunked(data, status: status)
        if writes {
            response.writesMemory = true
            response.additionalProcessingTime = Self.writeTime
        }
        return response
    }

    // MARK: Authentication

    /// AuthenticateEV2First (`71`: KeyNo, LenCap, PCDcap2) or NonFirst (`77`: KeyNo): the card
    /// answers E(Kx, RndB) with IV zero behind `91 AF` (§9.1.5, §9.1.6, §10.4.1, §10.4.2).
    /// PCDcap2.1 bit 1 asks for AuthenticateLRPFirst: a tag in LRP mode answers `01` ‖ RndB
    /// (§10.4.3), one in AES mode the AES answer, so that the reader can fall back (§9, Table
    /// 19). A tag in LRP mode refuses AES authentication with PERMISSION_DENIED, and NonFirst
    /// takes the mode of the session it continues.
    mutating func beginAuthentication(first: Bool, _ data: [UInt8]) -> SimResponseAPDU {
        var capabilities: [UInt8] = []
        if first {
            guard data.count >= 2, data.count == 2 + Int(data[1]), data[1] <= 6 else { return Self.native(.lengthError) }
            capabilities = Array(data.dropFirst(2))
        } else {
            guard data.count == 1 else { return Self.native(.lengthError) }
            guard session != nil else { return Self.native(.permissionDenied) }
        }
        let keyNumber = data[0]
        guard Int(keyNumber) < keys.count else { return Self.native(.noSuchKey) }
        if lrpMode {
            let asksLRP = first ? (capabilities.first ?? 0) & 0x02 != 0 : session?.lrp != nil
            guard asksLRP else {
                session = nil
                return Self.native(.permissionDenied)
            }
            if first { session = nil }
            let rndB = random(16)
            pending = .authentication(keyNumber: keyNumber, rndB: rndB, first: first, pcdCapabilities: capabilities, lrp: true)
            return Self.native([0x01] + rndB, .additionalFrame)
        }
        if first { session = nil }
        let rndB = random(16)
        guard let encrypted = NTAG424Cipher.cbc(rndB, key: keys[Int(keyNumber)].value, decrypt: false) else {
            return Self.native(.integrityError)
        }
        pending = .authentication(keyNumber: keyNumber, rndB: rndB, first: first, pcdCapabilities: capabilities, lrp: false)
        return Self.native(encrypted, .additionalFrame)
    }

    /// The second frame: E(Kx, RndA ‖ RndB') with RndB' RndB rotated left by a byte. The card checks
    /// RndB', derives the session keys and answers E(Kx, TI ‖ RndA' ‖ PDcap2 ‖ PCDcap2) (First, CmdCtr
    /// zero) or E(Kx, RndA') (NonFirst, TI and CmdCtr kept).
    mutating func finishAuthentication(
        keyNumber: UInt8, rndB: [UInt8], first: Bool, pcdCapabilities: [UInt8], _ data: [UInt8]
    ) -> SimResponseAPDU {
        guard data.count == 32 else { return Self.native(.lengthError) }
        let key = keys[Int(keyNumber)].value
        guard let plain = NTAG424Cipher.cbc(data, key: key, decrypt: true) else { return Self.native(.integrityError) }
        let rndA = Array(plain[0..<16])
        guard Array(plain[16..<32]) == Array(rndB.dropFirst()) + [rndB[0]] else { return Self.native(.authenticationError) }
        guard let derived = NTAG424Cipher.sessionKeys(key: key, rndA: rndA, rndB: rndB) else { return Self.native(.integrityError) }
        let rotatedA = Array(rndA.dropFirst()) + [rndA[0]]
        let answer: [UInt8]
        if first {
            let ti = random(4)
            session = Session(keyNumber: keyNumber, encryption: derived.encryption, mac: derived.mac, ti: ti, counter: 0)
            let pcd = Array((pcdCapabilities + [UInt8](repeating: 0, count: 6)).prefix(6))
            answer = ti + rotatedA + [UInt8](repeating: 0, count: 6) + pcd
        } else {
            guard let previous = session else { return Self.native(.permissionDenied) }
            session = Session(
                keyNumber: keyNumber, encryption: derived.encryption, mac: derived.mac, ti: previous.ti, counter: previous.counter)
            answer = rotatedA
        }
        guard let encrypted = NTAG424Cipher.cbc(answer, key: key, decrypt: false) else { return Self.native(.integrityError) }
        return Self.native(encrypted, .ok)
    }
}
