/// SL3 authentication (NXP Reader Library `phalMfp_Sw_AuthenticateGeneral` and the EVx variant;
/// MIFARE Plus EV1 short data sheet §8.10; docs/mifare-plus.md):
/// - AuthenticateFirst (`70`, `73`): BNr, LenCap, PCDcap2 → `90` E(K, RndB); then `72` E(K, RndA ‖
///   RndB') → `90` E(K, TI ‖ RndA' ‖ PICCcap2 ‖ PCDcap2), CBC from a zero IV, R_Ctr = W_Ctr = 0 and
///   a new TI; PCDcap2[0] = `01` asks for EV1 secure messaging, which PICCcap2[0] confirms.
/// - AuthenticateNonFirst (`76`): BNr → `90` E(K, RndB); `72` E(K, RndA ‖ RndB') → `90` E(K, RndA');
///   TI and the counters stay; EV0 messaging enciphers with the session's answer and command IVs,
///   EV1 from zero.
/// RndA' and RndB' are rotated left by one byte. A wrong RndB' is `06`.
extension MIFAREPlusCard {
    /// The key a block number names, or `nil`.
    func aesKey(_ keyBlock: UInt16) -> [UInt8]? {
        guard keyBlock >= 0x4000, keyBlock < 0x4000 + UInt16(2 * model.sectorCount) || (keyBlock >= 0x9000 && keyBlock <= 0x9007)
        else { return nil }
        return keys[keyBlock]
    }

    mutating func authenticateFirst(_ data: [UInt8]) -> (MIFAREPlusStatus, [UInt8], Bool) {
        guard data.count >= 3, data.count == 3 + Int(data[2]), data[2] <= 6 else { return (.formatError, [], false) }
        let keyBlock = UInt16(data[0]) | UInt16(data[1]) << 8
        guard let key = aesKey(keyBlock) else { return (.invalidBlock, [], false) }
        let capabilities = Array(data.dropFirst(3))
        session = nil
        transferBuffer = nil
        let rndB = random(16)
        guard let encrypted = NTAG424Cipher.cbc(rndB, key: key, decrypt: false) else { return (.generalFailure, [], false) }
        pending = .authentication(
            keyBlock: keyBlock, key: key, rndB: rndB, first: true, ev1: capabilities.first == 0x01, pcdCapabilities: capabilities)
        return (.ok, encrypted, false)
    }

    mutating func authenticateNonFirst(_ data: [UInt8]) -> (MIFAREPlusStatus, [UInt8], Bool) {
        guard data.count == 2 else { return (.formatError, [], false) }
        guard let current = session else { return (.commandInvalid, [], false) }
        let keyBlock = UInt16(data[0]) | UInt16(data[1]) << 8
        guard let key = aesKey(keyBlock) else { return (.invalidBlock, [], false) }
        let rndB = random(16)
        let iv = current.ev1 ? NTAG424Cipher.zeroBlock : current.iv(response: true, read: current.readCounter, write: current.writeCounter)
        guard let iv, let encrypted = NTAG424Cipher.cbc(rndB, key: key, iv: iv, decrypt: false) else { return (.generalFailure, [], false) }
        pending = .authentication(keyBlock: keyBlock, key: key, rndB: rndB, first: false, ev1: current.ev1, pcdCapabilities: [])
        return (.ok, encrypted, false)
    }

    mutating func finishAuthentication(
        keyBlock: UInt16, key: [UInt8], rndB: [UInt8], first: Bool, ev1: Bool, pcd: [UInt8], _ data: [UInt8]
    ) -> (MIFAREPlusStatus, [UInt8], Bool) {
        guard data.count == 32 else { return (.formatError, [], false) }
        let previous = session
        let zero = NTAG424Cipher.zeroBlock
        var commandIV = zero
        var answerIV = zero
        if !first, let previous, !previous.ev1 {
            guard let c = previous.iv(response: false, read: previous.readCounter, write: previous.writeCounter),
                let r = previous.iv(response: true, read: previous.readCounter, write: previous.writeCounter)
            else { return (.generalFailure, [], false) }
            commandIV = c
            answerIV = r
        }
        guard let plain = NTAG424Cipher.cbc(data, key: key, iv: commandIV, decrypt: true) else { return (.generalFailure, [], false) }
        let rndA = Array(plain[0..<16])
        guard Array(plain[16..<32]) == Array(rndB.dropFirst()) + [rndB[0]] else { return (.authenticationError, [], false) }
        guard let derived = MIFAREPlusSession.keys(key: key, rndA: rndA, rndB: rndB, ev1: ev1) else { return (.generalFailure, [], false) }
        let rotatedA = Array(rndA.dropFirst()) + [rndA[0]]
        let answer: [UInt8]
        if first {
            let ti = random(4)
            session = MIFAREPlusSession(keyBlock: keyBlock, encryption: derived.encryption, mac: derived.mac, ti: ti, ev1: ev1)
            let piccCapabilities: [UInt8] = [ev1 ? 0x01 : 0x00, 0, 0, 0, 0, 0]
            let pcdCapabilities = Array((pcd + [UInt8](repeating: 0, count: 6)).prefix(6))
            answer = ti + rotatedA + piccCapabilities + pcdCapabilities
        } else {
            guard var next = previous else { return (.commandInvalid, [], false) }
            next.keyBlock = keyBlock
            next.encryption = derived.encryption
            next.mac = derived.mac
            next.unMACedReads = nil
            session = next
            answer = rotatedA
        }
        guard let encrypted = NTAG424Cipher.cbc(answer, key: key, iv: answerIV, decrypt: false) else { return (.generalFailure, [], false) }
        return (.ok, encrypted, false)
    }
}
