extension DESFireCard {
    /// SetConfiguration (`5C`, PICC level, PICC master key, full mode): option `00` then one
    /// byte — bit 0 disables FormatPICC, bit 1 turns on the random ID. The option byte goes in
    /// plain, the configuration enciphered (MIFARE DESFire EV1 data sheet, SetConfiguration; the
    /// layout libfreefare's `mifare_desfire_set_configuration` sends). A bit once set stays set:
    /// the card ORs the new byte into what it holds (on a real card both are irreversible). Other
    /// options (the default key, the ATS, the EV2 ones) are not modelled and answer `1C`, as a
    /// command the card lacks; other bits in option `00` are a parameter error (`9E`).
    mutating func setConfiguration(_ data: [UInt8]) -> DESFireAnswer {
        guard let option = data.first else { return DESFireAnswer(.lengthError) }
        guard option == 0x00 else { return DESFireAnswer(.illegalCommand) }
        guard selected == nil else { return DESFireAnswer(.permissionDenied) }
        guard masterKeyAuthenticated else { return DESFireAnswer(.authenticationError) }
        switch open(ins: 0x5C, data, headerLength: 1, mode: .full, bodyLength: 1) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let parts):
            guard parts.body.count == 1 else { return DESFireAnswer(.lengthError) }
            guard parts.body[0] & ~0x03 == 0 else { return DESFireAnswer(.parameterError) }
            piccConfiguration |= parts.body[0]
            return seal([], mode: .full, writes: true)
        }
    }
}
