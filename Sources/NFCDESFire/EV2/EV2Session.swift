/// How a command's data travels (NT4H2421Gx §9.1.4; MIFARE DESFire EV2 the same).
public enum DESFireCommunicationMode: String, Sendable, Hashable, CaseIterable {
    /// In the clear.
    case plain
    /// In the clear with an 8-byte MAC each way.
    case mac
    /// Encrypted, then MACed.
    case full
}

/// An authenticated EV2 secure-messaging session: the session keys, the transaction identifier
/// (TI) and the command counter (CmdCtr), and the wrapping of commands and answers.
///
/// NTAG 424 DNA data sheet (NT4H2421Gx rev. 3.0) §9.1.7–§9.1.10 and NXP AN12196 §5:
/// - SesAuthENCKey = CMAC(Kx, SV1), SesAuthMACKey = CMAC(Kx, SV2), SV1 = `A5 5A 00 01 00 80` ‖
///   RndA[15..14] ‖ (RndA[13..8] ⊕ RndB[15..10]) ‖ RndB[9..0] ‖ RndA[7..0], SV2 the same after
///   `5A A5 00 01 00 80` (byte 15 is the first byte sent);
/// - a command MAC is MACt(SesAuthMACKey, Cmd ‖ CmdCtr ‖ TI ‖ header ‖ data), an answer MAC
///   MACt(SesAuthMACKey, RC ‖ CmdCtr + 1 ‖ TI ‖ data), CmdCtr least significant byte first;
/// - encrypted data is AES-CBC under SesAuthENCKey, padded by ISO/IEC 9797-1 method 2, with
///   IV = E(SesAuthENCKey, `A5 5A` ‖ TI ‖ CmdCtr ‖ zeros) for commands and `5A A5` … CmdCtr + 1 for answers;
/// - CmdCtr steps once per command answered `91 00` inside the session.
public struct EV2Session: Sendable, Hashable {
    /// The key the session was opened with.
    public let keyNumber: UInt8
    /// SesAuthENCKey.
    public let encryptionKey: [UInt8]
    /// SesAuthMACKey.
    public let macKey: [UInt8]
    /// TI, 4 bytes, chosen by the card.
    public let transactionIdentifier: [UInt8]
    /// CmdCtr.
    public internal(set) var commandCounter: UInt16

    /// A session from the authentication's values: derives both session keys.
    /// - Throws: ``DESFireError`` `.wrongKey` for a key that is not 16 bytes, `.invalidArgument`
    ///   for random numbers that are not 16 bytes or a TI that is not 4.
    public init(keyNumber: UInt8, key: [UInt8], rndA: [UInt8], rndB: [UInt8], transactionIdentifier: [UInt8], commandCounter: UInt16 = 0)
        throws(DESFireError)
    {
        guard rndA.count == 16, rndB.count == 16, transactionIdentifier.count == 4 else {
            throw DESFireError(.invalidArgument, "RndA and RndB have 16 bytes and TI 4")
        }
        let context =
            Array(rndA[0..<2]) + zip(rndA[2..<8], rndB[0..<6]).map { $0 ^ $1 } + Array(rndB[6..<16]) + Array(rndA[8..<16])
        self.keyNumber = keyNumber
        encryptionKey = try DESFireCrypto.cmac(key: key, [0xA5, 0x5A, 0x00, 0x01, 0x00, 0x80] + context)
        macKey = try DESFireCrypto.cmac(key: key, [0x5A, 0xA5, 0x00, 0x01, 0x00, 0x80] + context)
        self.transactionIdentifier = transactionIdentifier
        self.commandCounter = commandCounter
    }

    /// A session from keys already derived (to replay a published exchange, or resume one).
    public init(keyNumber: UInt8, encryptionKey: [UInt8], macKey: [UInt8], transactionIdentifier: [UInt8], commandCounter: UInt16 = 0) {
        self.keyNumber = keyNumber
        self.encryptionKey = encryptionKey
        self.macKey = macKey
        self.transactionIdentifier = transactionIdentifier
        self.commandCounter = commandCounter
    }

    /// CmdCtr as sent, least significant byte first.
    var counterBytes: [UInt8] { [UInt8(truncatingIfNeeded: commandCounter), UInt8(truncatingIfNeeded: commandCounter >> 8)] }

    /// The IV for a command (`A5 5A`, CmdCtr) or an answer (`5A A5`, CmdCtr + 1).
    func iv(response: Bool) throws(DESFireError) -> [UInt8] {
        let counter = response ? commandCounter &+ 1 : commandCounter
        let label: [UInt8] = response ? [0x5A, 0xA5] : [0xA5, 0x5A]
        let input = label + transactionIdentifier + [UInt8(truncatingIfNeeded: counter), UInt8(truncatingIfNeeded: counter >> 8)]
        return try DESFireCrypto.block(input + [UInt8](repeating: 0, count: 8), key: encryptionKey, decrypt: false)
    }

    /// A command's data field under `mode`: header ‖ data (encrypted in full mode) ‖ MACt (MAC and full).
    public func protect(command: UInt8, header: [UInt8], data: [UInt8], mode: DESFireCommunicationMode) throws(DESFireError) -> [UInt8] {
        guard mode != .plain else { return header + data }
        var body = data
        if mode == .full && !data.isEmpty {
            body = try DESFireCrypto.encryptCBC(DESFireCrypto.pad(data), key: encryptionKey, iv: try iv(response: false))
        }
        let mac = DESFireCrypto.truncated(
            try DESFireCrypto.cmac(key: macKey, [command] + counterBytes + transactionIdentifier + header + body))
        return header + body + mac
    }

    /// Checks an answer `91 00` under `mode`, steps CmdCtr, and returns the plain data.
    /// - Throws: ``DESFireError`` `.responseIntegrity` when the MAC is wrong or the data does not
    ///   decrypt to padded plain text (CmdCtr then does not step: the session is over).
    /// `status` is the answer's return code (`00`; `0C` for a NO_CHANGES answer that carries a MAC).
    public mutating func open(response data: [UInt8], mode: DESFireCommunicationMode, status: UInt8 = 0x00) throws(DESFireError) -> [UInt8]
    {
        guard mode != .plain else {
            commandCounter &+= 1
            return data
        }
        guard data.count >= 8 else { throw DESFireError(.responseIntegrity, "the answer has \(data.count) bytes, too short for its MAC") }
        let body = Array(data.dropLast(8))
        let next = commandCounter &+ 1
        let input = [status] + [UInt8(truncatingIfNeeded: next), UInt8(truncatingIfNeeded: next >> 8)] + transactionIdentifier + body
        guard DESFireCrypto.truncated(try DESFireCrypto.cmac(key: macKey, input)) == Array(data.suffix(8)) else {
            throw DESFireError(.responseIntegrity, "the answer's MAC is wrong")
        }
        var plain = body
        if mode == .full && !body.isEmpty {
            guard body.count % 16 == 0 else {
                throw DESFireError(.responseIntegrity, "encrypted data of \(body.count) bytes is not whole blocks")
            }
            guard let unpadded = DESFireCrypto.unpad(try DESFireCrypto.decryptCBC(body, key: encryptionKey, iv: try iv(response: true)))
            else {
                throw DESFireError(.responseIntegrity, "the answer's data does not decrypt to padded plain text")
            }
            plain = unpadded
        }
        commandCounter = next
        return plain
    }
}
