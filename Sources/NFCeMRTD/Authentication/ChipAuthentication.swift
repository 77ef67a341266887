import Crypto
import ISO7816
import NFCEllipticCurves

/// Chip authentication (ICAO Doc 9303 Part 11 §6.2; BSI TR-03110 Part 2 §3.4, Part 3 §B.1 for
/// the commands): the terminal agrees a key with the chip's static key from DG14 and both restart
/// secure messaging with session keys derived from it (send sequence counter 0). A chip that
/// does not hold the private key — a clone of the data onto another chip — cannot answer under
/// the new keys, so the first protected answer after the switch is the proof.
///
/// With AES: MSE:Set AT (`00 22 41 A4`, `80` the protocol, `84` the key) then General
/// Authenticate (`00 86 00 00`, `7C { 80 ephemeral key }`). With 3DES: MSE:Set KAT
/// (`00 22 41 A6`, `91` ephemeral key, `84` the key). Both are sent under the session BAC or
/// PACE opened, and answered under it.
package enum ChipAuthentication {
    /// The protocol and key the chip was authenticated with.
    package struct Result: Sendable, Hashable, CustomStringConvertible {
        /// The protocol run.
        package let info: ChipSecurityInfos.ChipAuthenticationInfo
        /// The chip's static key.
        package let key: ChipPublicKey

        package var description: String { "\(info) on \(key.curve)" }
    }

    /// The protocol this build runs, of those DG14 offers, with its key: ECDH with 3DES or AES.
    package static func choose(from infos: ChipSecurityInfos) -> (ChipSecurityInfos.ChipAuthenticationInfo, ChipPublicKey)? {
        for info in infos.chipAuthentication where info.isECDH && (info.aesKeyLength != nil || info.isTripleDES) {
            let matching = infos.chipAuthenticationKeys.first { $0.keyIdentifier == info.keyIdentifier || info.keyIdentifier == nil }
            if let matching { return (info, matching.key) }
        }
        return nil
    }

    /// Runs chip authentication over `channel` and switches it to the new session keys.
    ///
    /// - Parameters:
    ///   - infos: DG14's SecurityInfos.
    ///   - channel: the open channel; on success its secure messaging uses the new keys.
    ///   - terminalKey: the ephemeral private key (random unless a test replays an exchange).
    /// - Throws: ``EMRTDError`` `.unsupportedAlgorithm` when DG14 offers nothing this build runs,
    ///   `.unexpectedStatus` when the chip refuses a command, `.chipNotGenuine` when the chip
    ///   cannot answer under the agreed keys (it does not hold DG14's key).
    package static func run(
        infos: ChipSecurityInfos, channel: inout PassportChannel, terminalKey: [UInt8]? = nil
    ) async throws(EMRTDError) -> Result {
        guard let (info, chipKey) = choose(from: infos) else {
            throw EMRTDError(
                .unsupportedAlgorithm, file: "DG14",
                "DG14 offers \(infos.chipAuthentication.map(\.description).joined(separator: ", ")); this build runs CA-ECDH with 3DES or AES and an elliptic-curve key"
            )
        }
        let curve = chipKey.curve
        let privateKey = curve.scalar(terminalKey ?? PACE.randomBytes(curve.byteCount))
        let publicKey = curve.encode(curve.multiply(curve.generator, by: privateKey))
        guard let secretX = curve.multiply(chipKey.point, by: privateKey).x else {
            throw EMRTDError(.authenticationFailed, file: "DG14", "the chip-authentication key gives a shared point at infinity")
        }
        let keyReference = info.keyIdentifier.map { BERTLV(tag: 0x84, value: integerBytes($0)).encoded } ?? []
        if info.isTripleDES {
            let answer = try await channel.send(
                CommandAPDU(ins: 0x22, p1: 0x41, p2: 0xA6, data: BERTLV(tag: 0x91, value: publicKey).encoded + keyReference))
            try check(answer.statusWord, step: "MSE:Set KAT")
        } else {
            let setAT = try await channel.send(
                CommandAPDU(ins: 0x22, p1: 0x41, p2: 0xA4, data: BERTLV(tag: 0x80, value: info.identifierBytes).encoded + keyReference))
            try check(setAT.statusWord, step: "MSE:Set AT")
            let general = try await channel.send(
                CommandAPDU(
                    ins: 0x86, data: BERTLV(tag: 0x7C, value: BERTLV(tag: 0x80, value: publicKey).encoded).encoded,
                    expectedLength: CommandAPDU.maximumShortExpectedLength))
            try check(general.statusWord, step: "General Authenticate")
        }

        let secret = curve.fixed(secretX)
        if let length = info.aesKeyLength {
            channel.secureMessaging = try SecureMessaging(
                aesEncryptionKey: PACE.derive(secret, counter: 1, length: length), macKey: PACE.derive(secret, counter: 2, length: length))
        } else {
            channel.secureMessaging = try SecureMessaging(
                encryptionKey: KeyDerivation.tripleDESKey(seed: secret, purpose: .encryption),
                macKey: KeyDerivation.tripleDESKey(seed: secret, purpose: .mac), sendSequenceCounter: 0)
        }
        // The proof: a protected answer under the new keys.
        do {
            try await channel.selectApplication()
        } catch  where error.code == .secureMessaging {
            throw EMRTDError(
                .chipNotGenuine, file: "DG14",
                "chip authentication failed: the chip cannot answer under the keys agreed with DG14's key, so it does not hold that key (\(error.reason))"
            )
        }
        return Result(info: info, key: chipKey)
    }

    static func check(_ status: StatusWord, step: String) throws(EMRTDError) {
        guard status == .success else {
            throw EMRTDError(.unexpectedStatus, statusWord: status, "chip authentication: the chip refused \(step)")
        }
    }

    /// A key identifier as the unsigned big-endian bytes `84` carries.
    static func integerBytes(_ value: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = max(0, value)
        repeat {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        } while rest > 0
        return bytes
    }
}
