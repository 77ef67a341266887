import NFCBytes

/// Key settings, key changes and key versions (MIFARE DESFire EV1 short data sheet §8.4 and §9;
/// NT4H2421Gx §10.6.1 for the EV2 ChangeKey cryptogram, which DESFire EV2 shares).
extension DESFireCard {
    /// The selected level's key settings byte.
    var levelKeySettings: UInt8 {
        guard let selected else { return piccKeySettings }
        return applications[selected].keySettings
    }

    /// GetKeySettings (`45`): the key settings and the second byte (crypto method and number of
    /// keys; at the PICC level the master key's method and one key). Free when listing is (bit 1), else under the
    /// level's master key.
    mutating func getKeySettings(_ data: [UInt8]) -> DESFireAnswer {
        if let refused = requireMaster(unless: levelKeySettings & 0x02 != 0) { return DESFireAnswer(refused) }
        switch open(ins: 0x45, data, headerLength: 0, mode: managementMode) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let parts):
            guard parts.body.isEmpty else { return DESFireAnswer(.lengthError) }
            let second = selected.map { applications[$0].keySettings2 } ?? (piccKeyType.methodBits | 0x01)
            return seal([levelKeySettings, second], mode: managementMode)
        }
    }

    /// ChangeKeySettings (`54`): the new settings byte, encrypted, under the level's master key;
    /// PERMISSION_DENIED when the settings are frozen (bit 3 clear).
    mutating func changeKeySettings(_ data: [UInt8]) -> DESFireAnswer {
        guard masterKeyAuthenticated else { return DESFireAnswer(.authenticationError) }
        guard levelKeySettings & 0x08 != 0 else { return DESFireAnswer(.permissionDenied) }
        switch open(ins: 0x54, data, headerLength: 0, mode: .full, bodyLength: 1) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let parts):
            guard parts.body.count == 1 else { return DESFireAnswer(.lengthError) }
            if let selected {
                applications[selected].keySettings = parts.body[0]
            } else {
                piccKeySettings = parts.body[0]
            }
            return seal([], mode: .full, writes: true)
        }
    }

    /// ChangeKey (`C4`): KeyNo (bits 7–6 the new key's type at the PICC level; zero in an
    /// application, whose key type is fixed), then the cryptogram. Who may change which key follows
    /// the key settings (``DESFireApplication/changeKeyCondition(for:)``). Changing the session's
    /// own key ends the session (the answer has no MAC); changing another sends the new key
    /// XORed with the old one and a checksum of the new one. The cryptogram per session:
    /// - EV2 (AES only; NT4H2421Gx §10.6.1): NewKey ‖ KeyVer, or (NewKey ⊕ OldKey) ‖ KeyVer ‖
    ///   CRC32(NewKey), in full mode.
    /// - EV1 (`1A`, `AA`): NewKey [‖ KeyVer for AES] ‖ CRC32(C4 ‖ KeyNo ‖ that), or (NewKey ⊕
    ///   OldKey) [‖ KeyVer] ‖ CRC32(C4 ‖ KeyNo ‖ that) ‖ CRC32(NewKey), zero-padded, enciphered
    ///   from the session IV.
    /// - Legacy (`0A`): NewKey ‖ CRC16(NewKey), or (NewKey ⊕ OldKey) ‖ CRC16(that) ‖
    ///   CRC16(NewKey), zero-padded, in the reader's send mode.
    /// DES-family keys carry their version in their parity bits.
    mutating func changeKey(_ data: [UInt8]) -> DESFireAnswer {
        guard let first = data.first else { return DESFireAnswer(.lengthError) }
        let target = first & 0x3F
        let newType: DESFireKeyType
        if selected == nil {
            guard let type = DESFireKeyType(methodBits: first) else { return DESFireAnswer(.parameterError) }
            newType = type
        } else {
            guard first & 0xC0 == 0 else { return DESFireAnswer(.parameterError) }
            newType = levelKeyType
        }
        guard Int(target) < levelKeys.count else { return DESFireAnswer(.noSuchKey) }
        let condition: UInt8?
        if let selected {
            condition = applications[selected].changeKeyCondition(for: target)
        } else {
            condition = piccKeySettings & 0x01 != 0 ? 0 : nil
        }
        guard let condition else { return DESFireAnswer(.permissionDenied) }
        guard let session, session.keyNumber == condition else { return DESFireAnswer(.authenticationError) }
        let own = session.keyNumber == target
        let old = levelKeys[Int(target)].value
        let key: Key
        switch session {
        case .ev2:
            guard newType == .aes else { return DESFireAnswer(.parameterError) }
            switch open(ins: 0xC4, data, headerLength: 1, mode: .full) {
            case .failure(let status): return DESFireAnswer(status)
            case .success(let parts):
                let body = parts.body
                if own {
                    guard body.count == 17 else { return DESFireAnswer(.lengthError) }
                    key = Key(value: Array(body[0..<16]), version: body[16])
                } else {
                    guard body.count == 21, old.count == 16 else { return DESFireAnswer(.lengthError) }
                    let newKey = zip(body[0..<16], old).map { $0 ^ $1 }
                    guard Array(body[17..<21]) == NTAG424Tag.crc32(newKey) else { return DESFireAnswer(.integrityError) }
                    key = Key(value: newKey, version: body[16])
                }
            }
        case .ev1(var ev1):
            guard let plain = ev1.decipher(Array(data.dropFirst())) else { return DESFireAnswer(.lengthError) }
            self.session = .ev1(ev1)
            guard let parsed = Self.parseKeyCryptogram(plain, ins: first, type: newType, old: own ? nil : old, legacy: ev1.legacy) else {
                return DESFireAnswer(.integrityError)
            }
            key = parsed
        }
        setKey(target, key, type: newType)
        if own {
            self.session = nil
            return DESFireAnswer([], .ok, writes: true)
        }
        return seal([], mode: .full, writes: true)
    }

    /// Reads an EV1 or legacy ChangeKey cryptogram (deciphered): the new key, `nil` when a
    /// checksum or the padding is wrong. `old` is the key XORed in when another key changes.
    static func parseKeyCryptogram(_ plain: [UInt8], ins keyNumber: UInt8, type: DESFireKeyType, old: [UInt8]?, legacy: Bool) -> Key? {
        let length = type.keyLength
        let versioned = type == .aes && !legacy
        var index = length + (versioned ? 1 : 0)
        guard plain.count >= index else { return nil }
        var value = Array(plain[0..<length])
        let covered = Array(plain[0..<index])
        if legacy {
            guard plain.count >= index + 2, Array(plain[index..<index + 2]) == CRC16.crcA.bytes(covered) else { return nil }
            index += 2
        } else {
            guard plain.count >= index + 4, Array(plain[index..<index + 4]) == DESFireCardSession.crc32([0xC4, keyNumber] + covered) else {
                return nil
            }
            index += 4
        }
        if let old {
            guard old.count == length else { return nil }
            value = zip(value, old).map { $0 ^ $1 }
            let check = legacy ? CRC16.crcA.bytes(value) : DESFireCardSession.crc32(value)
            guard plain.count >= index + check.count, Array(plain[index..<index + check.count]) == check else { return nil }
            index += check.count
        }
        guard plain[index...].allSatisfy({ $0 == 0 }) else { return nil }
        let version = type == .aes ? (versioned ? plain[length] : 0) : DESFireKeyType.parityVersion(value)
        return Key(value: value, version: version)
    }

    private mutating func setKey(_ number: UInt8, _ key: Key, type: DESFireKeyType) {
        if let selected {
            applications[selected].keys[Int(number)] = key
        } else {
            piccKey = key
            piccKeyType = type
        }
    }
    /// GetKeyVersion (`64`): KeyNo; the version, free.
    mutating func getKeyVersion(_ data: [UInt8]) -> DESFireAnswer {
        switch open(ins: 0x64, data, headerLength: 1, mode: managementMode) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let parts):
            guard parts.body.isEmpty else { return DESFireAnswer(.lengthError) }
            let number = Int(parts.header[0] & 0x3F)
            guard number < levelKeys.count else { return DESFireAnswer(.noSuchKey) }
            return seal([levelKeys[number].version], mode: managementMode)
        }
    }
}
