import NFCTransport

extension DESFireCard {
    /// SetConfiguration (`5C`, PICC level, PICC master key, full mode): the option byte in plain,
    /// its data enciphered (MIFARE DESFire EV1 data sheet, SetConfiguration; the layouts
    /// libfreefare's `mifare_desfire_set_configuration`, `_set_default_key` and `_set_ats` send):
    /// - `00` and one byte: bit 0 disables FormatPICC, bit 1 turns on the random ID. A bit once
    ///   set stays set: the card ORs the new byte into what it holds (on a real card both are
    ///   irreversible); other bits are a parameter error (`9E`).
    /// - `01`, a 24-byte key and its version: the key every key of an application created from
    ///   then on starts as (a key type takes its first 16 or 24 bytes).
    /// - `02` and an ATS, TL first: the card's ATS from the next activation. Its length is only
    ///   in TL, so EV1 and legacy sessions end the cryptogram with `CRC ‖ 80 00…`
    ///   (``CheckedPadding``); an ATS over 20 bytes or one ISO/IEC 14443-4 §5.2 cannot parse is a
    ///   parameter error.
    ///
    /// The EV2 options answer `1C`, as a command the card lacks.
    mutating func setConfiguration(_ data: [UInt8]) -> DESFireAnswer {
        guard let option = data.first else { return DESFireAnswer(.lengthError) }
        guard option <= 0x02 else { return DESFireAnswer(.illegalCommand) }
        guard selected == nil else { return DESFireAnswer(.permissionDenied) }
        guard masterKeyAuthenticated else { return DESFireAnswer(.authenticationError) }
        let length: Int? = [0x00: 1, 0x01: 25][option]
        switch open(ins: 0x5C, data, headerLength: 1, mode: .full, bodyLength: length, endMarker: option == 0x02) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let parts):
            let body = parts.body
            switch option {
            case 0x00:
                guard body.count == 1 else { return DESFireAnswer(.lengthError) }
                guard body[0] & ~0x03 == 0 else { return DESFireAnswer(.parameterError) }
                piccConfiguration |= body[0]
            case 0x01:
                guard body.count == 25 else { return DESFireAnswer(.lengthError) }
                defaultKey = Key(value: Array(body.prefix(24)), version: body[24])
            default:
                guard Self.isValidATS(body) else { return DESFireAnswer(.parameterError) }
                userATS = body
            }
            return seal([], mode: .full, writes: true)
        }
    }

    /// The longest ATS SetConfiguration takes (TL included).
    static let maximumATSLength = 20

    /// Whether `ats` is an ATS the card can answer RATS with: TL equal to its length, at most
    /// ``maximumATSLength`` bytes, and T0's interface bytes present (ISO/IEC 14443-4 §5.2).
    static func isValidATS(_ ats: [UInt8]) -> Bool {
        guard ats.count >= 2, ats.count <= maximumATSLength else { return false }
        return (try? AnswerToSelect(bytes: ats)) != nil
    }

    /// The keys of a new application: ``defaultKey`` cut to the type's length, or zeros.
    func newApplicationKey(_ type: DESFireKeyType) -> Key {
        guard let defaultKey else { return type.zeroKey }
        return Key(value: Array(defaultKey.value.prefix(type.keyLength)), version: defaultKey.version)
    }
}
