/// Authenticate (`0A`, DES and 2K3DES keys), AuthenticateISO (`1A`, DES, 2K3DES and 3K3DES keys)
/// and AuthenticateAES (`AA`, AES keys) on the card side (MIFARE DESFire EV1 short data sheet
/// MF3ICDx21_41_81 §9, "Security related commands"; docs/desfire.md lists the sources of the
/// details the short data sheet leaves out).
///
/// Each proves both sides hold the key with RndA and RndB (8 bytes for DES and 2K3DES, 16 for
/// 3K3DES and AES), each rotated left by one byte. `0A` enciphers each message alone (IV zero)
/// and takes the reader's token in its "send mode"; `1A` and `AA` chain CBC across the
/// messages: E(RndB) from IV zero, the reader's E(RndA ‖ RndB') from the last block of E(RndB),
/// the card's E(RndA') from the last block of the reader's token.
extension DESFireCard {
    /// The first frame: KeyNo. A key of another type than the command's is AUTHENTICATION_ERROR.
    mutating func beginEV1Authentication(_ ins: UInt8, _ data: [UInt8]) -> DESFireAnswer {
        guard data.count == 1 else { return DESFireAnswer(.lengthError) }
        let keyNumber = data[0] & 0x3F
        guard Int(keyNumber) < levelKeys.count else { return DESFireAnswer(.noSuchKey) }
        session = nil
        discardTransaction()
        let type = levelKeyType
        let allowed: Bool
        switch ins {
        case 0x0A: allowed = type == .des
        case 0x1A: allowed = type == .des || type == .tdes3
        default: allowed = type == .aes
        }
        guard allowed, let cipher = DESFireCardCipher(type: type, key: levelKeys[Int(keyNumber)].value) else {
            return DESFireAnswer(.authenticationError)
        }
        let rndB = random(type == .des ? 8 : 16)
        let zero = [UInt8](repeating: 0, count: cipher.blockSize)
        guard let encrypted = cipher.cbc(rndB, iv: zero, decrypt: false) else { return DESFireAnswer(.integrityError) }
        pending = .ev1Authentication(ins: ins, keyNumber: keyNumber, rndB: rndB, iv: encrypted.iv)
        return DESFireAnswer(encrypted.data, .additionalFrame)
    }

    /// The second frame, the reader's token for RndA ‖ RndB': the card checks RndB', answers
    /// E(RndA') and opens the session (IV zero).
    mutating func finishEV1Authentication(ins: UInt8, keyNumber: UInt8, rndB: [UInt8], iv: [UInt8], _ data: [UInt8]) -> DESFireAnswer {
        let type = levelKeyType
        guard data.count == 2 * rndB.count else { return DESFireAnswer(.lengthError) }
        guard let cipher = DESFireCardCipher(type: type, key: levelKeys[Int(keyNumber)].value) else {
            return DESFireAnswer(.integrityError)
        }
        let plain: [UInt8]
        if ins == 0x0A {
            guard let received = cipher.legacyReceive(data) else { return DESFireAnswer(.integrityError) }
            plain = received
        } else {
            guard let received = cipher.cbc(data, iv: iv, decrypt: true) else { return DESFireAnswer(.integrityError) }
            plain = received.data
        }
        let half = rndB.count
        let rndA = Array(plain[0..<half])
        guard Array(plain[half...]) == Array(rndB.dropFirst()) + [rndB[0]] else { return DESFireAnswer(.authenticationError) }
        let rotatedA = Array(rndA.dropFirst()) + [rndA[0]]
        let zero = [UInt8](repeating: 0, count: cipher.blockSize)
        let answerIV = ins == 0x0A ? zero : Array(data.suffix(cipher.blockSize))
        guard let answer = cipher.cbc(rotatedA, iv: answerIV, decrypt: false),
            let sessionCipher = DESFireCardCipher(type: type, key: Self.sessionKey(type: type, key: cipher.key, rndA: rndA, rndB: rndB))
        else { return DESFireAnswer(.integrityError) }
        session = .ev1(EV1CardSession(keyNumber: keyNumber, cipher: sessionCipher, iv: zero, legacy: ins == 0x0A))
        return DESFireAnswer(answer.data, .ok)
    }

    /// The session key from the two randoms: DES (a key whose halves are equal) `RndA[0..3] ‖
    /// RndB[0..3]` twice; 2K3DES `RndA[0..3] ‖ RndB[0..3] ‖ RndA[4..7] ‖ RndB[4..7]`; 3K3DES
    /// `RndA[0..3] ‖ RndB[0..3] ‖ RndA[6..9] ‖ RndB[6..9] ‖ RndA[12..15] ‖ RndB[12..15]`; AES
    /// `RndA[0..3] ‖ RndB[0..3] ‖ RndA[12..15] ‖ RndB[12..15]`.
    static func sessionKey(type: DESFireKeyType, key: [UInt8], rndA: [UInt8], rndB: [UInt8]) -> [UInt8] {
        let a = rndA
        let b = rndB
        switch type {
        case .des:
            let first = Array(a[0..<4] + b[0..<4])
            return key.prefix(8).elementsEqual(key.dropFirst(8)) ? first + first : first + Array(a[4..<8] + b[4..<8])
        case .tdes3:
            return Array(a[0..<4] + b[0..<4] + a[6..<10] + b[6..<10] + a[12..<16] + b[12..<16])
        case .aes:
            return Array(a[0..<4] + b[0..<4] + a[12..<16] + b[12..<16])
        }
    }
}
