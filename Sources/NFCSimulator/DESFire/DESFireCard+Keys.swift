/// Key settings, key changes and key versions (MIFARE DESFire EV1 short data sheet §8.4 and §9;
/// NT4H2421Gx §10.6.1 for the EV2 ChangeKey cryptogram, which DESFire EV2 shares).
extension DESFireCard {
    /// The selected level's key settings byte.
    var levelKeySettings: UInt8 {
        guard let selected else { return piccKeySettings }
        return applications[selected].keySettings
    }

    /// GetKeySettings (`45`): the key settings and the second byte (crypto method and number of
    /// keys; `81` at the PICC level: AES, one key). Free when listing is (bit 1), else under the
    /// level's master key.
    mutating func getKeySettings(_ data: [UInt8]) -> DESFireAnswer {
        if let refused = requireMaster(unless: levelKeySettings & 0x02 != 0) { return DESFireAnswer(refused) }
        switch open(ins: 0x45, data, headerLength: 0, mode: managementMode) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let parts):
            guard parts.body.isEmpty else { return DESFireAnswer(.lengthError) }
            let second = selected.map { applications[$0].keySettings2 } ?? 0x81
            return seal([levelKeySettings, second], mode: managementMode)
        }
    }

    /// ChangeKeySettings (`54`): the new settings byte, encrypted, under the level's master key;
    /// PERMISSION_DENIED when the settings are frozen (bit 3 clear).
    mutating func changeKeySettings(_ data: [UInt8]) -> DESFireAnswer {
        guard masterKeyAuthenticated else { return DESFireAnswer(.authenticationError) }
        guard levelKeySettings & 0x08 != 0 else { return DESFireAnswer(.permissionDenied) }
        switch open(ins: 0x54, data, headerLength: 0, mode: .full) {
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

    /// ChangeKey (`C4`): KeyNo (bits 7–6 the new key's type at the PICC level, which must be `10`,
    /// AES, here; zero in an application, whose key type is fixed), then encrypted either
    /// NewKey ‖ KeyVer (the session's own key: the session ends and the answer has no MAC) or
    /// (NewKey ⊕ OldKey) ‖ KeyVer ‖ CRC32(NewKey). Who may change which key follows the key
    /// settings (``DESFireApplication/changeKeyCondition(for:)``).
    mutating func changeKey(_ data: [UInt8]) -> DESFireAnswer {
        guard let first = data.first else { return DESFireAnswer(.lengthError) }
        let target = first & 0x3F
        guard first & 0xC0 == (selected == nil ? 0x80 : 0x00) else { return DESFireAnswer(.parameterError) }
        guard Int(target) < levelKeys.count else { return DESFireAnswer(.noSuchKey) }
        let condition: UInt8?
        if let selected {
            condition = applications[selected].changeKeyCondition(for: target)
        } else {
            condition = piccKeySettings & 0x01 != 0 ? 0 : nil
        }
        guard let condition else { return DESFireAnswer(.permissionDenied) }
        guard let session, session.keyNumber == condition else { return DESFireAnswer(.authenticationError) }
        switch open(ins: 0xC4, data, headerLength: 1, mode: .full) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let parts):
            let body = parts.body
            if session.keyNumber == target {
                guard body.count == 17 else { return DESFireAnswer(.lengthError) }
                setKey(target, Key(value: Array(body[0..<16]), version: body[16]))
                self.session = nil
                return DESFireAnswer([], .ok, writes: true)
            }
            guard body.count == 21 else { return DESFireAnswer(.lengthError) }
            let newKey = zip(body[0..<16], levelKeys[Int(target)].value).map { $0 ^ $1 }
            guard Array(body[17..<21]) == NTAG424Tag.crc32(newKey) else { return DESFireAnswer(.integrityError) }
            setKey(target, Key(value: newKey, version: body[16]))
            return seal([], mode: .full, writes: true)
        }
    }

    private mutating func setKey(_ number: UInt8, _ key: Key) {
        if let selected {
            applications[selected].keys[Int(number)] = key
        } else {
            piccKey = key
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
