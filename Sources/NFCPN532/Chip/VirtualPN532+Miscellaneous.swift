import NFCTransport

/// The miscellaneous commands (UM0701-02 §7.2) and RFConfiguration (§7.3.1).
extension VirtualPN532 {
    /// Diagnose (§7.2.1): test 0 (communication line) echoes its data after the test number;
    /// tests 1 (ROM), 2 (RAM) and 7 (antenna) pass; test 6 (attention request) answers 0 when
    /// the current target is still in the field, 1 when not.
    func diagnose(_ parameters: [UInt8]) async -> [UInt8]? {
        guard let test = parameters.first else { return nil }
        switch test {
        case 0x00: return parameters
        case 0x01, 0x02: return [PN532Status.success.rawValue]
        case 0x06:
            guard let current = targets.first(where: { $0.selected }) else { return [0x01] }
            let inField = (try? await driver.targets(matching: .all)) ?? []
            return [inField.contains { $0.handle == current.info.handle } ? 0x00 : 0x01]
        case 0x07: return [PN532Status.success.rawValue]
        default: return nil
        }
    }

    /// GetGeneralStatus (§7.2.3): last error, field, each target (Tg, BrRx, BrTx: `00` 106,
    /// `01` 212, `02` 424 kbit/s; modulation type: `00` ISO/IEC 14443 or MIFARE, `10` FeliCa),
    /// SAM status.
    func generalStatus() -> [UInt8] {
        var bytes: [UInt8] = [lastError, fieldOn ? 1 : 0, UInt8(targets.count)]
        for target in targets {
            let felica = target.modulation == 0x01 || target.modulation == 0x02
            let rate: UInt8 = felica ? target.modulation : 0x00
            bytes += [target.number, rate, rate, felica ? 0x10 : 0x00]
        }
        return bytes + [0x00]
    }

    /// ReadRegister (§7.2.4): one value per 16-bit address, most significant byte first.
    func readRegisters(_ parameters: [UInt8]) -> [UInt8]? {
        guard !parameters.isEmpty, parameters.count % 2 == 0 else { return nil }
        return stride(from: 0, to: parameters.count, by: 2).map { index in
            register(UInt16(parameters[index]) << 8 | UInt16(parameters[index + 1]))
        }
    }

    /// WriteRegister (§7.2.5): address (2 bytes) and value, repeated.
    func writeRegisters(_ parameters: [UInt8]) -> [UInt8]? {
        guard !parameters.isEmpty, parameters.count % 3 == 0 else { return nil }
        for index in stride(from: 0, to: parameters.count, by: 3) {
            registers[UInt16(parameters[index]) << 8 | UInt16(parameters[index + 1])] = parameters[index + 2]
        }
        return []
    }

    /// A register's value: what the host wrote, else its reset value.
    func register(_ address: UInt16) -> UInt8 {
        registers[address] ?? CIURegister.resetValue(address)
    }

    /// Whether the CIU adds CRC_A to what it sends (TxModeReg bit 7, TxCRCEn) and checks and
    /// removes it from what it receives (RxModeReg bit 7, RxCRCEn) — PN512 data sheet §9.2.
    var sendsCRC: Bool { register(CIURegister.txMode) & 0x80 != 0 }
    /// See ``sendsCRC``.
    var checksCRC: Bool { register(CIURegister.rxMode) & 0x80 != 0 }

    /// RFConfiguration (§7.3.1): item 1 switches the field (bit 0 RF on, bit 1 AutoRFCA; off
    /// releases every target, and every card in the field powers down, so halted cards are idle
    /// again),
    /// item 5 sets the retries (passive activation is the third byte); the timing and analog
    /// items are taken and have no effect here.
    func rfConfiguration(_ parameters: [UInt8]) async -> [UInt8]? {
        guard let item = parameters.first else { return nil }
        let values = Array(parameters.dropFirst())
        switch item {
        case 0x01:
            guard values.count == 1 else { return nil }
            fieldOn = values[0] & 0x01 != 0
            if !fieldOn {
                await releaseAll()
                halted = []
            }
        case 0x02: guard values.count == 3 else { return nil }
        case 0x04: guard values.count == 1 else { return nil }
        case 0x05:
            guard values.count == 3 else { return nil }
            passiveActivationRetries = values[2]
        case 0x0A: guard values.count == 11 else { return nil }
        case 0x0B: guard values.count == 8 else { return nil }
        case 0x0C: guard values.count == 3 else { return nil }
        case 0x0D: guard values.count == 9 else { return nil }
        default: return nil
        }
        return []
    }
}

/// The CIU registers a host of the virtual PN532 uses (PN512 data sheet, register map; the PN532
/// maps them at `6301h`–`633Fh`, UM0701-02 §7.2.4), with their reset values.
enum CIURegister {
    /// TxModeReg: bit 7 TxCRCEn, bits 4–6 the bit rate.
    static let txMode: UInt16 = 0x6302
    /// RxModeReg: bit 7 RxCRCEn.
    static let rxMode: UInt16 = 0x6303
    /// BitFramingReg: bits 0–2 TxLastBits (a short frame's bit count).
    static let bitFraming: UInt16 = 0x633D
    /// ManualRCVReg: bit 4 ParityDisable.
    static let manualRCV: UInt16 = 0x630D

    /// The value after reset (PN512 data sheet, the register tables): TxModeReg and RxModeReg
    /// `80h` with CRC on as the PN532 leaves them for ISO/IEC 14443 A; 0 where not listed here.
    static func resetValue(_ address: UInt16) -> UInt8 {
        switch address {
        case txMode, rxMode: 0x80
        default: 0x00
        }
    }
}
