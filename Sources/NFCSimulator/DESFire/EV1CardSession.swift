import NFCBytes

/// The card side of the secure messaging that follows AuthenticateISO (`1A`) and AuthenticateAES
/// (`AA`) — "EV1": a CMAC chained through every command and answer — or the legacy Authenticate
/// (`0A`): DES MACs and CRC16 cryptograms with a fresh IV each time (MIFARE DESFire EV1 short data
/// sheet MF3ICDx21_41_81 §9; the full data sheet's details as libfreefare and the DESFire EV1
/// public literature describe them, listed in docs/desfire.md).
///
/// EV1: the IV starts at zero after authentication. Every command the card takes updates it with
/// the CMAC of `Cmd ‖ header ‖ data` (sent as its first 8 bytes in MAC mode); every successful
/// answer carries the first 8 bytes of the CMAC of `data ‖ 00`, which becomes the IV. Full mode
/// enciphers `data ‖ CRC32(Cmd ‖ header ‖ data)` (commands) or `data ‖ CRC32(data ‖ 00)`
/// (answers), zero-padded, in CBC from the current IV, whose last block becomes the IV.
///
/// Legacy: nothing is added in plain mode; MAC mode adds the 4-byte DES MAC of the data (not the
/// header); full mode enciphers `data ‖ CRC16(data)`, zero-padded, IV zero — the reader with D in
/// its "send mode", the card answering with standard CBC.
struct EV1CardSession: Sendable, Hashable {
    /// The key the session was opened with.
    var keyNumber: UInt8
    /// The session key's cipher.
    var cipher: DESFireCardCipher
    /// The current IV (EV1 only).
    var iv: [UInt8]
    /// Whether the session came from the legacy Authenticate (`0A`).
    var legacy: Bool

    /// Checks and removes a command's protection; `headerLength` bytes stay in the clear. An
    /// enciphered body ends at `bodyLength` when given, before `CRC ‖ 80 00…` with `endMarker`.
    mutating func unwrap(
        ins: UInt8, _ data: [UInt8], headerLength: Int, mode: NTAG424File.CommunicationMode, bodyLength: Int? = nil,
        endMarker: Bool = false
    ) -> Result<(header: [UInt8], body: [UInt8]), DESFireStatus> {
        guard data.count >= headerLength else { return .failure(.lengthError) }
        let header = Array(data.prefix(headerLength))
        let rest = Array(data.dropFirst(headerLength))
        // Reads (ReadData, ReadRecords, GetValue) in MAC mode: the answer carries the MAC, the
        // command none (libfreefare sends them MDCM_PLAIN | CMAC_COMMAND; proxmark3 MACs only
        // WriteData, Credit, Debit, LimitedCredit, WriteRecord and UpdateRecord commands).
        let mode = mode == .mac && Self.readCommands.contains(ins) ? .plain : mode
        if legacy {
            switch mode {
            case .plain: return .success((header, rest))
            case .mac:
                guard rest.count >= 4, let mac = cipher.legacyMAC(Array(rest.dropLast(4))), mac == Array(rest.suffix(4)) else {
                    return .failure(.integrityError)
                }
                return .success((header, Array(rest.dropLast(4))))
            case .full:
                guard !rest.isEmpty else { return .success((header, rest)) }
                guard let plain = cipher.legacyReceive(rest),
                    let body = CheckedPadding.strip(
                        plain, blockSize: cipher.blockSize, length: bodyLength, endMarker: endMarker, check: { CRC16.crcA.bytes($0) })
                else {
                    return .failure(.integrityError)
                }
                return .success((header, body))
            }
        }
        switch mode {
        case .plain:
            guard let next = cipher.cmac([ins] + data, iv: iv) else { return .failure(.integrityError) }
            iv = next
            return .success((header, rest))
        case .mac:
            guard rest.count >= 8 else { return .failure(.lengthError) }
            let body = Array(rest.dropLast(8))
            guard let next = cipher.cmac([ins] + header + body, iv: iv), Array(next.prefix(8)) == Array(rest.suffix(8)) else {
                return .failure(.integrityError)
            }
            iv = next
            return .success((header, body))
        case .full:
            guard !rest.isEmpty else { return unwrap(ins: ins, data, headerLength: headerLength, mode: .plain) }
            guard let decrypted = decipher(rest),
                let body = CheckedPadding.strip(
                    decrypted, blockSize: cipher.blockSize, length: bodyLength, endMarker: endMarker,
                    check: { DESFireCardSession.crc32([ins] + header + $0) })
            else { return .failure(.integrityError) }
            return .success((header, body))
        }
    }

    /// The read-type commands, whose MAC-mode commands go without a MAC.
    static let readCommands: Set<UInt8> = [0xBD, 0xAD, 0xBB, 0xAB, 0x6C]
    /// The write-type commands, whose MAC-mode answers in a legacy session go without a MAC.
    static let writeCommands: Set<UInt8> = [0x3D, 0x8D, 0x3B, 0x8B, 0x0C, 0xDC, 0x1C]

    /// Deciphers an EV1 command's enciphered part from the current IV (which moves on); `nil`
    /// when it is not whole blocks. Legacy: the "send mode" reading, IV zero.
    mutating func decipher(_ data: [UInt8]) -> [UInt8]? {
        guard !data.isEmpty else { return nil }
        if legacy { return cipher.legacyReceive(data) }
        guard let result = cipher.cbc(data, iv: iv, decrypt: true) else { return nil }
        iv = Array(data.suffix(cipher.blockSize))
        return result.data
    }

    /// Protects a successful answer.
    mutating func wrap(_ data: [UInt8], mode: NTAG424File.CommunicationMode, status: UInt8 = 0x00) -> Result<[UInt8], DESFireStatus> {
        if legacy {
            switch mode {
            case .plain: return .success(data)
            case .mac:
                guard let mac = cipher.legacyMAC(data) else { return .failure(.integrityError) }
                return .success(data + mac)
            case .full:
                guard !data.isEmpty else { return .success(data) }
                guard let sealed = cipher.cbc(pad(data + CRC16.crcA.bytes(data)), iv: zero, decrypt: false) else {
                    return .failure(.integrityError)
                }
                return .success(sealed.data)
            }
        }
        if mode == .full, !data.isEmpty {
            guard let sealed = cipher.cbc(pad(data + DESFireCardSession.crc32(data + [status])), iv: iv, decrypt: false) else {
                return .failure(.integrityError)
            }
            iv = sealed.iv
            return .success(sealed.data)
        }
        guard let mac = cipher.cmac(data + [status], iv: iv) else { return .failure(.integrityError) }
        iv = mac
        return .success(data + mac.prefix(8))
    }

    /// Zero padding to whole blocks (none when already whole).
    func pad(_ data: [UInt8]) -> [UInt8] {
        var out = data
        while out.count % cipher.blockSize != 0 { out.append(0) }
        return out
    }

    private var zero: [UInt8] { [UInt8](repeating: 0, count: cipher.blockSize) }
}
