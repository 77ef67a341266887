extension Type2Tag {
    /// The ACCESS byte of CFG1 (NTAG21x and MF0ULX1 data sheets, “Configuration pages”).
    public struct Access: OptionSet, Sendable, Hashable {
        /// The ACCESS byte as stored.
        public let rawValue: UInt8
        /// Flags from an ACCESS byte, AUTHLIM in bits 0–2 included.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// PROT: reads from AUTH0 on need the password too (otherwise only writes do).
        public static let readProtection = Access(rawValue: 0x80)
        /// CFGLCK: CFG0 and CFG1 are permanently write-locked (from the next power-on).
        public static let configurationLock = Access(rawValue: 0x40)
        /// NFC_CNT_EN (NTAG21x): the NFC counter counts the first READ or FAST_READ after power-on.
        public static let nfcCounterEnabled = Access(rawValue: 0x10)
        /// NFC_CNT_PWD_PROT (NTAG21x): READ_CNT needs the password.
        public static let nfcCounterPasswordProtected = Access(rawValue: 0x08)

        /// AUTHLIM: how many wrong passwords permanently block PWD_AUTH (0: no limit).
        public var authenticationLimit: Int { Int(rawValue & 0x07) }
    }

    /// The configuration the chip acts on, which lags the EEPROM: a genuine chip re-reads AUTH0
    /// and ACCESS when it is activated, but CFGLCK and the mirror settings only at power-on.
    struct EffectiveConfiguration: Sendable, Hashable {
        var auth0: Int
        var access: Access
        /// The MIRROR byte of NTAG21x CFG0 (MIRROR_CONF, MIRROR_BYTE); zero on EV1.
        var mirror: UInt8
        var mirrorPage: Int

        init(memory: [UInt8], model: Model) {
            let cfg0 = model.configurationPage0 * 4
            auth0 = Int(memory[cfg0 + 3])
            access = Access(rawValue: memory[model.configurationPage1 * 4])
            mirror = model.isNTAG ? memory[cfg0] : 0
            mirrorPage = Int(memory[cfg0 + 2])
        }

        mutating func reactivate(memory: [UInt8], model: Model) {
            let latest = EffectiveConfiguration(memory: memory, model: model)
            auth0 = latest.auth0
            access = latest.access.subtracting(.configurationLock).union(access.intersection(.configurationLock))
        }
    }

    /// Whether reading a page needs the password now (PROT set, at or past AUTH0, not authenticated).
    func isReadProtected(_ page: Int) -> Bool {
        !isAuthenticated && effective.access.contains(.readProtection) && page >= effective.auth0
    }

    /// Whether writing a page needs the password now (at or past AUTH0, not authenticated).
    func isWriteProtected(_ page: Int) -> Bool {
        !isAuthenticated && page >= effective.auth0
    }

    // MARK: PWD_AUTH

    /// PWD_AUTH (NTAG21x §10.7; MF0ULX1 “PWD_AUTH”): the password against PWD; PACK and AUTHENTICATED
    /// on a match. A mismatch answers NAK 0h and counts towards AUTHLIM; the attempt that reaches
    /// the limit, and every attempt after it (right password or not), answers NAK 4h. Attempts
    /// are counted only while AUTHLIM is non-zero; a success resets the count.
    mutating func authenticate(password: [UInt8]) -> TagAnswer {
        let limit = effective.access.authenticationLimit
        if limit != 0, failedAuthentications >= limit { return nak(.authenticationCounterOverflow) }
        if password == page(model.passwordPage) {
            let counted = failedAuthentications != 0
            failedAuthentications = 0
            state = .authenticated
            return TagAnswer(.bytes(Array(page(model.packPage)[0..<2])), writesMemory: counted)
        }
        guard limit != 0 else { return nak(.invalidArgument) }
        failedAuthentications += 1
        // The count is programmed even though the answer is a NAK (anti-tearing counter).
        var answer = nak(failedAuthentications >= limit ? .authenticationCounterOverflow : .invalidArgument)
        answer.writesMemory = true
        return answer
    }

    // MARK: Counters

    /// READ_CNT (NTAG21x §10.6: address 02h, NFC_CNT_EN set, password if NFC_CNT_PWD_PROT;
    /// MF0ULX1 “READ_CNT”: counters 0–2): the 24-bit value, least significant byte first.
    mutating func readCounter(_ address: Int) -> TagAnswer {
        let index: Int
        if model.isNTAG {
            guard address == 2, effective.access.contains(.nfcCounterEnabled) else { return nak(.invalidArgument) }
            if effective.access.contains(.nfcCounterPasswordProtected), !isAuthenticated { return nak(.invalidArgument) }
            index = 0
        } else {
            guard address < 3 else { return nak(.invalidArgument) }
            index = address
        }
        let value = counters[index]
        return .bytes([UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)])
    }

    /// INCR_CNT (MF0ULX1 “INCR_CNT”): adds the 24-bit operand (LSB first; the fourth data byte is
    /// ignored) to counter 0–2. An increment past FFFFFFh is refused with NAK 0h and leaves the
    /// counter as it was.
    mutating func incrementCounter(_ address: Int, by operand: [UInt8]) -> TagAnswer {
        guard address < 3 else { return nak(.invalidArgument) }
        let increment = UInt32(operand[0]) | UInt32(operand[1]) << 8 | UInt32(operand[2]) << 16
        guard counters[address] + increment <= 0xFF_FFFF else { return nak(.invalidArgument) }
        counters[address] += increment
        tearingFlags[address] = 0xBD
        return TagAnswer(.ack, processingTime: Self.eepromWriteTime, writesMemory: true)
    }

    /// CHECK_TEARING_EVENT (MF0ULX1 “CHECK_TEARING_EVENT”): the tearing flag of counter 0–2, BDh when its last
    /// increment completed.
    mutating func checkTearingEvent(_ address: Int) -> TagAnswer {
        guard address < 3 else { return nak(.invalidArgument) }
        return .bytes([tearingFlags[address]])
    }

    /// The NFC counter counts the first successful READ or FAST_READ after power-on when
    /// NFC_CNT_EN is set; it stops at FFFFFFh (NTAG21x “NFC counter function”). Returns whether EEPROM changed.
    mutating func countNFCRead() -> Bool {
        guard model.isNTAG, !nfcCounterIncremented, effective.access.contains(.nfcCounterEnabled) else { return false }
        nfcCounterIncremented = true
        guard counters[0] < 0xFF_FFFF else { return false }
        counters[0] += 1
        return true
    }
}
