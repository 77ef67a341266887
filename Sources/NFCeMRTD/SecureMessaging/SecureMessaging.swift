import ISO7816

/// Secure messaging (ICAO Doc 9303 Part 11 §9.8, ISO/IEC 7816-4 §10): every command is
/// encrypted into `DO'87'` (or `DO'85'` for an odd instruction), its expected length put in
/// `DO'97'`, and a MAC over the send sequence counter, the padded header and those objects sent
/// in `DO'8E'`; every answer comes back as `DO'87'`/`DO'85'`, `DO'99'` (the status word) and
/// `DO'8E'`. The send sequence counter is incremented before each MAC.
///
/// With 3DES keys (BAC, §9.8.6.1) the counter has 8 bytes, the cipher runs CBC with a zero IV
/// and the MAC is ISO/IEC 9797-1 algorithm 3. With AES keys (PACE, §9.8.6.2) the counter has 16
/// bytes, the IV is the counter enciphered with KS_Enc, the MAC is CMAC truncated to 8 bytes, and
/// padding fills 16-byte blocks.
package struct SecureMessaging: Sendable {
    private let cipher: SecureMessagingCipher
    /// The send sequence counter (its low 64 bits; an AES counter's upper 8 bytes stay zero).
    package private(set) var sendSequenceCounter: UInt64

    /// A 3DES channel with 16-byte session keys and the starting counter (BAC).
    /// - Throws: ``EMRTDError`` `.authenticationFailed` when a key is not 16 bytes.
    package init(encryptionKey: [UInt8], macKey: [UInt8], sendSequenceCounter: UInt64) throws(EMRTDError) {
        cipher = try .tripleDES(encryptionKey: encryptionKey, macKey: macKey)
        self.sendSequenceCounter = sendSequenceCounter
    }

    /// An AES channel (PACE), its counter starting at zero.
    /// - Throws: ``EMRTDError`` `.authenticationFailed` when a key is not 16, 24 or 32 bytes.
    package init(aesEncryptionKey: [UInt8], macKey: [UInt8]) throws(EMRTDError) {
        cipher = try .aes(encryptionKey: aesEncryptionKey, macKey: macKey)
        sendSequenceCounter = 0
    }

    /// Whether the session runs AES (PACE) rather than 3DES (BAC).
    package var isAES: Bool { cipher.blockSize == 16 }

    /// The protected form of `command`, as it goes to the chip.
    /// - Throws: ``EMRTDError`` `.secureMessaging` when the command cannot be encoded.
    package mutating func protect(_ command: CommandAPDU) throws(EMRTDError) -> CommandAPDU {
        let cla = command.cla | 0x0C
        let header = [cla, command.ins, command.p1, command.p2]
        var objects: [UInt8] = []
        if !command.data.isEmpty {
            let cryptogram = try cipher.encrypt(cipher.pad(command.data), counter: counterBytes(after: 1))
            if command.ins & 1 == 1 {
                objects += BERTLV(tag: 0x85, value: cryptogram).encoded
            } else {
                objects += BERTLV(tag: 0x87, value: [0x01] + cryptogram).encoded
            }
        }
        let extended = command.needsExtendedLength
        if let length = command.expectedLength {
            let le: [UInt8] =
                extended || length > CommandAPDU.maximumShortExpectedLength
                ? [UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
                : [UInt8(truncatingIfNeeded: length)]
            objects += BERTLV(tag: 0x97, value: le).encoded
        }
        sendSequenceCounter &+= 1
        let checksum = try cipher.mac(counterBytes + cipher.pad(header) + objects)
        objects += BERTLV(tag: 0x8E, value: checksum).encoded
        return CommandAPDU(
            cla: cla, ins: command.ins, p1: command.p1, p2: command.p2, data: objects,
            expectedLength: extended || objects.count > 255
                ? CommandAPDU.maximumExtendedExpectedLength : CommandAPDU.maximumShortExpectedLength)
    }

    /// The plain answer inside a protected one, after its MAC is verified.
    /// - Throws: ``EMRTDError`` `.secureMessaging` for a missing or malformed data object or a MAC
    ///   that does not verify (the chip has then ended the session, ICAO Doc 9303 Part 11 §9.8.4).
    package mutating func unprotect(_ bytes: [UInt8]) throws(EMRTDError) -> ResponseAPDU {
        sendSequenceCounter &+= 1
        let response: ResponseAPDU
        do { response = try ResponseAPDU(parsing: bytes) } catch {
            throw EMRTDError(.secureMessaging, "the answer has \(bytes.count) bytes, not even a status word")
        }
        // A chip that ends the session answers its status word plainly (6987: objects missing, 6988: wrong).
        guard !response.data.isEmpty else {
            throw EMRTDError(.secureMessaging, statusWord: response.statusWord, "the chip answered without secure messaging")
        }
        let objects: [BERTLV]
        do { objects = try BERTLV.parseAll(response.data) } catch {
            throw EMRTDError(.secureMessaging, "the protected answer is not BER-TLV: \(error)")
        }
        guard let checksum = objects.first(tag: 0x8E), let status = objects.first(tag: 0x99), status.value.count == 2 else {
            throw EMRTDError(.secureMessaging, "the protected answer lacks DO'99' or DO'8E'")
        }
        let covered = objects.filter { $0.tag != 0x8E }.flatMap(\.encoded)
        guard try cipher.mac(counterBytes + covered) == checksum.value else {
            throw EMRTDError(.secureMessaging, "the answer's MAC does not verify")
        }
        var data: [UInt8] = []
        if let encrypted = objects.first(tag: 0x87) ?? objects.first(tag: 0x85) {
            var cryptogram = encrypted.value
            if encrypted.tag == 0x87 {
                guard cryptogram.first == 0x01 else {
                    throw EMRTDError(.secureMessaging, "DO'87' padding indicator is not 01")
                }
                cryptogram.removeFirst()
            }
            guard !cryptogram.isEmpty, cryptogram.count % cipher.blockSize == 0 else {
                throw EMRTDError(.secureMessaging, "a cryptogram of \(cryptogram.count) bytes is not whole \(cipher.blockSize)-byte blocks")
            }
            let padded = try cipher.decrypt(cryptogram, counter: counterBytes)
            guard let end = padded.lastIndex(of: 0x80), padded[(end + 1)...].allSatisfy({ $0 == 0 }) else {
                throw EMRTDError(.secureMessaging, "the decrypted answer lacks ISO/IEC 9797-1 padding")
            }
            data = Array(padded[..<end])
        }
        return ResponseAPDU(data: data, statusWord: StatusWord(sw1: status.value[0], sw2: status.value[1]))
    }

    /// The counter as the cipher uses it: 8 bytes for 3DES, 16 for AES.
    private var counterBytes: [UInt8] { counterBytes(after: 0) }

    private func counterBytes(after increment: UInt64) -> [UInt8] {
        let low = withUnsafeBytes(of: (sendSequenceCounter &+ increment).bigEndian) { Array($0) }
        return cipher.blockSize == 16 ? [UInt8](repeating: 0, count: 8) + low : low
    }
}
