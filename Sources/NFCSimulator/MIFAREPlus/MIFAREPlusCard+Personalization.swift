/// SL0: WritePerso and CommitPerso (NXP Reader Library `phalMfp_WritePerso`/`CommitPerso` and
/// the EVx variants; MIFARE Plus EV1 short data sheet §8.8; docs/mifare-plus.md).
extension MIFAREPlusCard {
    /// WritePerso (`A8`): BNr (least significant byte first), then 1–15 blocks of 16 bytes for
    /// that address and the ones after it — data blocks 1 and up (block 0 is the manufacturer's:
    /// `09`), AES keys, card keys, configuration blocks. Unknown addresses: `09`.
    mutating func writePerso(_ data: [UInt8]) -> (MIFAREPlusStatus, [UInt8], Bool) {
        guard data.count >= 18, (data.count - 2) % 16 == 0, (data.count - 2) / 16 <= 15 else { return (.formatError, [], false) }
        let start = UInt16(data[0]) | UInt16(data[1]) << 8
        let count = (data.count - 2) / 16
        for index in 0..<count {
            let address = start &+ UInt16(index)
            guard isPersonalizable(address) else { return (.invalidBlock, [], false) }
        }
        for index in 0..<count {
            let address = start + UInt16(index)
            let block = Array(data[2 + 16 * index..<18 + 16 * index])
            if Int(address) < model.blockCount {
                blocks[Int(address)] = block
            } else {
                keys[address] = block
            }
            personalized.insert(address)
        }
        return (.ok, [], true)
    }

    /// Whether WritePerso takes an address.
    func isPersonalizable(_ address: UInt16) -> Bool {
        if address == 0 { return false }
        if Int(address) < model.blockCount { return true }
        return keys[address] != nil
    }

    /// CommitPerso (`AA`, optionally `01` for SL1 or `03` for SL3; none: SL3): refused (`0B`)
    /// until the card master key, card configuration key and level 3 switch key were written.
    mutating func commitPerso(_ data: [UInt8]) -> (MIFAREPlusStatus, [UInt8], Bool) {
        let level: SecurityLevel
        switch data {
        case [], [0x03]: level = .sl3
        case [0x01]: level = .sl1
        default: return (.formatError, [], false)
        }
        guard [0x9000, 0x9001, 0x9003].allSatisfy(personalized.contains) else { return (.commandInvalid, [], false) }
        securityLevel = level
        session = nil
        return (.ok, [], true)
    }
}
