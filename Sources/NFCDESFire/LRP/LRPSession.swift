/// An authenticated LRP secure-messaging session (NTAG 424 DNA in LRP mode, MIFARE DESFire
/// Light): opened by AuthenticateLRPFirst, continued by AuthenticateLRPNonFirst.
///
/// NT4H2421Gx §9.2 (and the DESFire Light data sheet's same section, AN12343 §7.2):
/// - SesAuthMasterKey = CMAC_LRP(Kx, SV), SV = `00 01 00 80` ‖ RndA[15..14] ‖ (RndA[13..8] ⊕
///   RndB[15..10]) ‖ RndB[9..0] ‖ RndA[7..0] ‖ `96 69` (byte 15 the first sent); its primitive's
///   updated key 0 is SesAuthMACKey, updated key 1 SesAuthENCKey (§9.2.7);
/// - TI, CmdCtr and the MAC inputs are EV2's (``EV2Session``); MACt is the odd-numbered bytes of
///   CMAC_LRP (§9.2.3);
/// - encrypted data is LRICB under SesAuthENCKey, always padded `80 00…`, the counter EncCtr (4
///   bytes, most significant first): one counter for both directions and every command, stepping
///   per block, 1 after AuthenticateLRPFirst (its PICCData took 0) and 0 after NonFirst (§9.2.4).
public struct LRPSession: Sendable, Hashable {
    /// The key the session was opened with.
    public let keyNumber: UInt8
    /// SesAuthMasterKey.
    public let masterKey: [UInt8]
    /// TI, 4 bytes, chosen by the card.
    public let transactionIdentifier: [UInt8]
    /// CmdCtr.
    public internal(set) var commandCounter: UInt16
    /// EncCtr.
    public internal(set) var encryptionCounter: UInt32
    /// The primitive of SesAuthMasterKey.
    let primitive: LeakageResilientPrimitive

    /// SesAuthMasterKey of `key` for RndA and RndB (§9.2.7).
    /// - Throws: ``DESFireError`` `.wrongKey` for a key that is not 16 bytes, `.invalidArgument`
    ///   for random numbers that are not 16 bytes.
    public static func masterKey(key: [UInt8], rndA: [UInt8], rndB: [UInt8]) throws(DESFireError) -> [UInt8] {
        guard rndA.count == 16, rndB.count == 16 else { throw DESFireError(.invalidArgument, "RndA and RndB have 16 bytes") }
        let vector =
            [0x00, 0x01, 0x00, 0x80] + Array(rndA[0..<2]) + zip(rndA[2..<8], rndB[0..<6]).map { $0 ^ $1 } + Array(rndB[6..<16])
            + Array(rndA[8..<16]) + [0x96, 0x69]
        return try LeakageResilientPrimitive(key: key).cmac(vector)
    }

    /// A session from SesAuthMasterKey and the card's TI.
    /// - Throws: ``DESFireError`` `.wrongKey` for a master key that is not 16 bytes,
    ///   `.invalidArgument` for a TI that is not 4.
    public init(
        keyNumber: UInt8, masterKey: [UInt8], transactionIdentifier: [UInt8], commandCounter: UInt16 = 0, encryptionCounter: UInt32 = 1
    ) throws(DESFireError) {
        guard transactionIdentifier.count == 4 else { throw DESFireError(.invalidArgument, "TI has 4 bytes") }
        self.keyNumber = keyNumber
        self.masterKey = masterKey
        primitive = try LeakageResilientPrimitive(key: masterKey)
        self.transactionIdentifier = transactionIdentifier
        self.commandCounter = commandCounter
        self.encryptionCounter = encryptionCounter
    }

    /// The full 16-byte CMAC_LRP under SesAuthMACKey, as the authentication uses it.
    public func authenticationMAC(_ message: [UInt8]) throws(DESFireError) -> [UInt8] { try primitive.cmac(message) }

    /// LRICB under SesAuthENCKey at EncCtr, stepping it.
    mutating func encipher(_ data: [UInt8], padding: Bool, decrypt: Bool) throws(DESFireError) -> [UInt8] {
        var counter = Self.counterBytes(encryptionCounter)
        let out =
            decrypt
            ? try primitive.decrypt(data, updatedKey: 1, counter: &counter, padding: padding)
            : try primitive.encrypt(data, updatedKey: 1, counter: &counter, padding: padding)
        encryptionCounter = UInt32(counter[0]) << 24 | UInt32(counter[1]) << 16 | UInt32(counter[2]) << 8 | UInt32(counter[3])
        return out
    }

    /// EncCtr as LRICB takes it: 4 bytes, most significant first.
    static func counterBytes(_ value: UInt32) -> [UInt8] {
        [
            UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value),
        ]
    }

    var counterBytes: [UInt8] { [UInt8(truncatingIfNeeded: commandCounter), UInt8(truncatingIfNeeded: commandCounter >> 8)] }

    /// A command's data field under `mode`: header ‖ data (LRICB-enciphered in full mode) ‖ MACt.
    public mutating func protect(command: UInt8, header: [UInt8], data: [UInt8], mode: DESFireCommunicationMode) throws(DESFireError)
        -> [UInt8]
    {
        guard mode != .plain else { return header + data }
        var body = data
        if mode == .full && !data.isEmpty { body = try encipher(data, padding: true, decrypt: false) }
        let mac = DESFireCrypto.truncated(try primitive.cmac([command] + counterBytes + transactionIdentifier + header + body))
        return header + body + mac
    }

    /// Checks an answer under `mode` (RC `status`), steps CmdCtr, and returns the plain data.
    /// - Throws: ``DESFireError`` `.responseIntegrity` when the MAC is wrong or the data does not
    ///   decipher to padded plain text (CmdCtr then does not step: the session is over).
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
        guard DESFireCrypto.truncated(try primitive.cmac(input)) == Array(data.suffix(8)) else {
            throw DESFireError(.responseIntegrity, "the answer's MAC is wrong")
        }
        var plain = body
        if mode == .full && !body.isEmpty {
            guard body.count % 16 == 0 else {
                throw DESFireError(.responseIntegrity, "enciphered data of \(body.count) bytes is not whole blocks")
            }
            do {
                plain = try encipher(body, padding: true, decrypt: true)
            } catch {
                throw DESFireError(.responseIntegrity, "the answer's data does not decipher to padded plain text")
            }
        }
        commandCounter = next
        return plain
    }
}
