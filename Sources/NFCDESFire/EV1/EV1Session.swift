import NFCBytes

/// A session opened by AuthenticateISO (`1A`) or AuthenticateAES (`AA`) — EV1 secure messaging —
/// or by the legacy Authenticate (`0A`) (MIFARE DESFire EV1 short data sheet MF3ICDx21_41_81 §9;
/// the details the short data sheet leaves out as docs/desfire.md cites them).
///
/// EV1: the session key is made of both randoms, the IV starts at zero, and each command and
/// each answer moves it on: a command by the CMAC of `Cmd ‖ header ‖ data` (its first 8 bytes
/// sent in MAC mode), an answer by the CMAC of `data ‖ status`, whose first 8 bytes end the
/// answer. Full mode enciphers `data ‖ CRC32(Cmd ‖ header ‖ data)` (answers: `data ‖ CRC32(data ‖
/// status)`), zero-padded, in CBC from the IV, whose last block becomes the IV.
///
/// Legacy: no IV chaining; MAC mode adds the 4-byte DES MAC of the data alone; full mode sends
/// `data ‖ CRC16(data)`, zero-padded, in the reader's send mode, and answers come in plain CBC.
public struct EV1Session: Sendable, Hashable {
    /// The key the session was opened with.
    public let keyNumber: UInt8
    /// The authentication that opened it (`.aes`, `.iso` or `.legacy`).
    public let method: DESFireAuthentication
    /// The session key's type.
    package var keyType: DESFireKeyType { cipher.type }
    /// The session key.
    package var sessionKey: [UInt8] { cipher.key }
    /// The current IV (EV1).
    public internal(set) var iv: [UInt8]
    let cipher: DESFireBlockCipher

    var legacy: Bool { method == .legacy }

    init(keyNumber: UInt8, method: DESFireAuthentication, cipher: DESFireBlockCipher) {
        self.keyNumber = keyNumber
        self.method = method
        self.cipher = cipher
        iv = cipher.zero
    }

    /// The session key from the randoms (`key` the authenticated key, as the card holds it):
    /// DES `RndA[0..3] ‖ RndB[0..3]` twice; 2K3DES `RndA[0..3] ‖ RndB[0..3] ‖ RndA[4..7] ‖
    /// RndB[4..7]`; 3K3DES `RndA[0..3] ‖ RndB[0..3] ‖ RndA[6..9] ‖ RndB[6..9] ‖ RndA[12..15] ‖
    /// RndB[12..15]`; AES `RndA[0..3] ‖ RndB[0..3] ‖ RndA[12..15] ‖ RndB[12..15]`.
    static func sessionKey(type: DESFireKeyType, key: [UInt8], rndA a: [UInt8], rndB b: [UInt8]) -> [UInt8] {
        switch type {
        case .des where key.prefix(8).elementsEqual(key.suffix(8)):
            return Array(a[0..<4] + b[0..<4] + a[0..<4] + b[0..<4])
        case .des:
            return Array(a[0..<4] + b[0..<4] + a[4..<8] + b[4..<8])
        case .tdes3:
            return Array(a[0..<4] + b[0..<4] + a[6..<10] + b[6..<10] + a[12..<16] + b[12..<16])
        case .aes:
            return Array(a[0..<4] + b[0..<4] + a[12..<16] + b[12..<16])
        }
    }

    /// A command's data field under `mode` (the IV moves on in EV1). With `endMarker` a full-mode
    /// cryptogram is `data ‖ CRC ‖ 80 00…` rather than `data ‖ CRC ‖ 00…`: how data whose length
    /// nothing else gives ends (SetConfiguration's ATS, as libfreefare and proxmark3 send it).
    public mutating func protect(
        command: UInt8, header: [UInt8], data: [UInt8], mode: DESFireCommunicationMode, endMarker: Bool = false
    ) throws(DESFireError) -> [UInt8] {
        let marker: [UInt8] = endMarker ? [0x80] : []
        if legacy {
            switch mode {
            case .plain: return header + data
            case .mac: return header + data + (try cipher.legacyMAC(data))
            case .full:
                guard !data.isEmpty else { return header }
                return header + (try cipher.legacySend(cipher.zeroPadded(data + CRC16.crcA.bytes(data) + marker)))
            }
        }
        switch mode {
        case .full where !data.isEmpty:
            let sealed = try cipher.encrypt(cipher.zeroPadded(data + DESFireCrypto.crc32([command] + header + data) + marker), iv: iv)
            iv = sealed.last
            return header + sealed.data
        case .mac:
            iv = try cipher.cmac([command] + header + data, iv: iv)
            return header + data + iv.prefix(8)
        default:
            iv = try cipher.cmac([command] + header + data, iv: iv)
            return header + data
        }
    }

    /// Enciphers a cryptogram already padded to whole blocks (ChangeKey's): EV1 in CBC from the IV,
    /// which moves on to its last block; legacy in the send mode from zero.
    mutating func encipher(_ plain: [UInt8]) throws(DESFireError) -> [UInt8] {
        if legacy { return try cipher.legacySend(plain) }
        let sealed = try cipher.encrypt(plain, iv: iv)
        iv = sealed.last
        return sealed.data
    }

    /// Checks a successful answer under `mode` and returns its plain data.
    /// - Throws: ``DESFireError`` `.responseIntegrity` for a wrong CMAC, MAC or CRC: the session is over.
    /// `length`, when the request says it, is where enciphered data ends (its CRC is checked there).
    public mutating func open(response data: [UInt8], mode: DESFireCommunicationMode, status: UInt8 = 0x00, length: Int? = nil)
        throws(DESFireError) -> [UInt8]
    {
        if legacy {
            switch mode {
            case .plain: return data
            case .mac:
                guard data.count >= 4, try cipher.legacyMAC(Array(data.dropLast(4))) == Array(data.suffix(4)) else {
                    throw DESFireError(.responseIntegrity, "the answer's MAC is wrong")
                }
                return Array(data.dropLast(4))
            case .full:
                guard !data.isEmpty else { return data }
                let plain = try cipher.decrypt(data, iv: cipher.zero)
                guard let body = CheckedPadding.strip(plain, blockSize: cipher.blockSize, length: length, check: { CRC16.crcA.bytes($0) })
                else {
                    throw DESFireError(.responseIntegrity, "the answer's CRC16 is wrong")
                }
                return body
            }
        }
        if mode == .full {
            // An answer without data carries the CMAC; one with data is all ciphertext.
            if data.count == 8, let next = try? cipher.cmac([status], iv: iv), Array(next.prefix(8)) == data {
                iv = next
                return []
            }
            guard !data.isEmpty, data.count % cipher.blockSize == 0 else {
                throw DESFireError(.responseIntegrity, "an enciphered answer of \(data.count) bytes")
            }
            let plain = try cipher.decrypt(data, iv: iv)
            guard
                let body = CheckedPadding.strip(
                    plain, blockSize: cipher.blockSize, length: length, check: { DESFireCrypto.crc32($0 + [status]) })
            else {
                throw DESFireError(.responseIntegrity, "the answer's CRC32 is wrong")
            }
            iv = Array(data.suffix(cipher.blockSize))
            return body
        }
        guard data.count >= 8 else { throw DESFireError(.responseIntegrity, "the answer has \(data.count) bytes, too short for its CMAC") }
        let body = Array(data.dropLast(8))
        let next = try cipher.cmac(body + [status], iv: iv)
        guard Array(next.prefix(8)) == Array(data.suffix(8)) else { throw DESFireError(.responseIntegrity, "the answer's CMAC is wrong") }
        iv = next
        return body
    }
}
