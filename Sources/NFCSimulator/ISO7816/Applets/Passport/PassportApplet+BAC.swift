import Crypto

/// Basic Access Control, the chip's side (ICAO Doc 9303 Part 11 §4.3.3 and §9.7.2).
extension PassportApplet {
    /// Time a chip spends on EXTERNAL AUTHENTICATE's 3DES and MAC work (an estimate).
    static let authenticationTime = Duration.milliseconds(25)

    /// K_seed: the first 16 bytes of SHA-1 over MRZ_information (Part 11 §9.7.2).
    var bacSeed: [UInt8] { Array(mrzSecret.prefix(16)) }

    /// GET CHALLENGE (`00 84 00 00 08`): 8 random bytes, kept for EXTERNAL AUTHENTICATE.
    mutating func getChallenge(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard bac else { return SimResponseAPDU(.instructionNotSupported) }
        guard command.p1 == 0, command.p2 == 0 else { return SimResponseAPDU(.incorrectP1P2) }
        guard command.ne == 8 else { return SimResponseAPDU(.wrongLength) }
        let nonce = ScriptedRandom.take(8, from: &scriptedRandom)
        challenge = nonce
        return SimResponseAPDU(data: nonce)
    }

    /// EXTERNAL AUTHENTICATE with E_IFD ‖ M_IFD: checks the MAC and that the terminal returns
    /// RND.IC, answers E_IC ‖ M_IC, and opens secure messaging with keys from K.IFD ⊕ K.IC.
    /// Anything wrong answers `6300` and consumes the challenge.
    mutating func externalAuthenticate(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard bac else { return SimResponseAPDU(.instructionNotSupported) }
        guard command.p1 == 0, command.p2 == 0 else { return SimResponseAPDU(.incorrectP1P2) }
        guard let nonce = challenge else { return SimResponseAPDU(.conditionsNotSatisfied) }
        challenge = nil
        guard command.data.count == 40 else { return SimResponseAPDU(.wrongLength) }
        let seed = bacSeed
        let encryptionKey = PassportSMSession.derive(seed: seed, counter: 1)
        let macKey = PassportSMSession.derive(seed: seed, counter: 2)
        let cryptogram = Array(command.data[0..<32])
        let refused = SimResponseAPDU(data: [], status: SimStatusWord(0x63, 0x00), additionalProcessingTime: Self.authenticationTime)
        guard PassportSMSession.mac(cryptogram, key: macKey) == Array(command.data[32..<40]),
            let plain = PassportSMSession.decrypt(cryptogram, key: encryptionKey), Array(plain[8..<16]) == nonce
        else { return refused }
        let terminalNonce = Array(plain[0..<8])
        let terminalKeys = Array(plain[16..<32])
        let chipKeys = ScriptedRandom.take(16, from: &scriptedRandom)
        let answer = PassportSMSession.encrypt(nonce + terminalNonce + chipKeys, key: encryptionKey)
        let sessionSeed = (0..<16).map { terminalKeys[$0] ^ chipKeys[$0] }
        let counter = (nonce[4..<8] + terminalNonce[4..<8]).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        session = PassportSMSession(
            encryptionKey: PassportSMSession.derive(seed: sessionSeed, counter: 1),
            macKey: PassportSMSession.derive(seed: sessionSeed, counter: 2), aes: false, counter: counter)
        currentFile = nil
        return SimResponseAPDU(
            data: answer + PassportSMSession.mac(answer, key: macKey), status: .success, additionalProcessingTime: Self.authenticationTime)
    }
}
