/// VERIFY, CHANGE REFERENCE DATA and RESET RETRY COUNTER (SP 800-73-4 Part 2 §3.2.1–§3.2.3).
///
/// A PIN or PUK block is 8 bytes: the value, then `FF` padding (Part 2 §2.4.3). A wrong value
/// answers `63Cx` with x tries left; a reference with no tries left answers `6983`.
extension PIVApplet {
    /// The value of an 8-byte reference data block, or `nil` when it is malformed (padding not
    /// at the end, shorter than `minimum` or a padding byte inside).
    static func unpad(_ block: ArraySlice<UInt8>, minimum: Int) -> [UInt8]? {
        guard block.count == 8 else { return nil }
        let value = Array(block.prefix { $0 != 0xFF })
        guard value.count >= minimum, block.dropFirst(value.count).allSatisfy({ $0 == 0xFF }) else { return nil }
        return value
    }

    /// Compares without stopping at the first difference.
    static func equalInConstantTime(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }

    /// `00 20 00 80` + PIN block: verify; no data: ask the status; `00 20 FF 80`: forget it.
    mutating func verify(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard command.p2 == Self.pinReference else {
            return SimResponseAPDU(command.p2 == 0x00 ? .referencedDataNotFound : .incorrectP1P2)
        }
        switch command.p1 {
        case 0xFF:
            guard command.data.isEmpty else { return SimResponseAPDU(.incorrectP1P2) }
            pinVerified = false
            pinFreshForAlways = false
            return SimResponseAPDU(.success)
        case 0x00:
            break
        default:
            return SimResponseAPDU(.incorrectP1P2)
        }
        if command.data.isEmpty {
            if pinRetries == 0 { return SimResponseAPDU(.authenticationMethodBlocked) }
            return SimResponseAPDU(pinVerified ? .success : .retriesLeft(pinRetries))
        }
        guard let candidate = Self.unpad(command.data[...], minimum: 1) else { return SimResponseAPDU(.incorrectData) }
        if pinRetries == 0 { return SimResponseAPDU(.authenticationMethodBlocked) }
        if Self.equalInConstantTime(candidate, pin) {
            let changed = pinRetries != pinMaxRetries
            pinRetries = pinMaxRetries
            pinVerified = true
            pinFreshForAlways = true
            return SimResponseAPDU(data: [], status: .success, writesMemory: changed)
        }
        pinRetries -= 1
        pinVerified = false
        pinFreshForAlways = false
        return SimResponseAPDU(data: [], status: .retriesLeft(pinRetries), writesMemory: true)
    }

    /// `00 24 00 80|81` + old block + new block: changes the PIN or the PUK.
    mutating func changeReferenceData(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard command.p1 == 0x00 else { return SimResponseAPDU(.incorrectP1P2) }
        guard command.p2 == Self.pinReference || command.p2 == Self.pukReference else { return SimResponseAPDU(.incorrectP1P2) }
        guard command.data.count == 16,
            let old = Self.unpad(command.data[0..<8], minimum: 1),
            let new = Self.unpad(command.data[8..<16], minimum: 6)
        else { return SimResponseAPDU(.incorrectData) }
        let isPIN = command.p2 == Self.pinReference
        let retries = isPIN ? pinRetries : pukRetries
        if retries == 0 { return SimResponseAPDU(.authenticationMethodBlocked) }
        guard Self.equalInConstantTime(old, isPIN ? pin : puk) else {
            if isPIN {
                pinRetries -= 1
                pinVerified = false
                pinFreshForAlways = false
            } else {
                pukRetries -= 1
            }
            return SimResponseAPDU(data: [], status: .retriesLeft(retries - 1), writesMemory: true)
        }
        if isPIN {
            pin = new
            pinRetries = pinMaxRetries
        } else {
            puk = new
            pukRetries = pukMaxRetries
        }
        return SimResponseAPDU(data: [], status: .success, writesMemory: true)
    }

    /// `00 2C 00 80` + PUK block + new PIN block: unblocks the PIN with the PUK.
    mutating func resetRetryCounter(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard command.p1 == 0x00, command.p2 == Self.pinReference else { return SimResponseAPDU(.incorrectP1P2) }
        guard command.data.count == 16,
            let candidate = Self.unpad(command.data[0..<8], minimum: 1),
            let new = Self.unpad(command.data[8..<16], minimum: 6)
        else { return SimResponseAPDU(.incorrectData) }
        if pukRetries == 0 { return SimResponseAPDU(.authenticationMethodBlocked) }
        guard Self.equalInConstantTime(candidate, puk) else {
            pukRetries -= 1
            return SimResponseAPDU(data: [], status: .retriesLeft(pukRetries), writesMemory: true)
        }
        pukRetries = pukMaxRetries
        pin = new
        pinRetries = pinMaxRetries
        return SimResponseAPDU(data: [], status: .success, writesMemory: true)
    }
}

extension SimStatusWord {
    /// `63Cx`: verification failed, x further tries allowed (ISO/IEC 7816-4:2013 Table 6).
    static func retriesLeft(_ count: Int) -> SimStatusWord {
        SimStatusWord(0x63, 0xC0 | UInt8(truncatingIfNeeded: min(max(count, 0), 15)))
    }
    /// `6983`: authentication method blocked.
    static let authenticationMethodBlocked = SimStatusWord(rawValue: 0x6983)
    /// `6A88`: referenced data or reference data not found.
    static let referencedDataNotFound = SimStatusWord(rawValue: 0x6A88)
}
