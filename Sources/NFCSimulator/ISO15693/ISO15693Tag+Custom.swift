extension ISO15693Tag {
    /// The ICODE SLIX2's own non-volatile settings (SL2S2602 data sheet).
    ///
    /// The simulator uses the originality signature (READ SIGNATURE), the page protection pointer and
    /// condition and the lock bits (GET NXP SYSTEM INFORMATION). The passwords, EAS and privacy mode
    /// are kept so an image loses nothing, but the commands that use them are not simulated; an
    /// image that would need them (privacy mode on, a protection condition set) is rejected.
    public struct SLIX2Settings: Sendable, Hashable {
        /// The 32-byte ECC originality signature NXP programmed (zeros when unknown).
        public var signature: [UInt8]
        /// The first block of the high page of the user memory protection (0 = one page).
        public var protectionPointer: UInt8
        /// The read/write protection of the low and high pages (bits 0, 1, 4, 5).
        public var protectionCondition: UInt8
        /// The EAS bit.
        public var easEnabled: Bool
        /// Whether LOCK EAS has been executed.
        public var easLocked: Bool
        /// Whether LOCK PAGE PROTECTION CONDITION has been executed.
        public var pageProtectionLocked: Bool
        /// Whether the tag is in privacy mode (it would then answer only GET RANDOM NUMBER and SET PASSWORD).
        public var privacyMode: Bool
        /// The 32-bit passwords (read, write, privacy, destroy, EAS/AFI), 4 bytes each, as stored.
        public var readPassword: [UInt8]
        /// The write password (4 bytes), kept but not used: the simulator runs no password commands.
        public var writePassword: [UInt8]
        /// The privacy password (4 bytes), kept but not used.
        public var privacyPassword: [UInt8]
        /// The destroy password (4 bytes), kept but not used.
        public var destroyPassword: [UInt8]
        /// The EAS/AFI password (4 bytes), kept but not used.
        public var easAFIPassword: [UInt8]

        /// Settings as a new SLIX2 has them by default: signature, protection, flags and passwords all zero.
        public init(
            signature: [UInt8] = Array(repeating: 0, count: 32), protectionPointer: UInt8 = 0,
            protectionCondition: UInt8 = 0, easEnabled: Bool = false, easLocked: Bool = false,
            pageProtectionLocked: Bool = false, privacyMode: Bool = false,
            readPassword: [UInt8] = [0, 0, 0, 0], writePassword: [UInt8] = [0, 0, 0, 0],
            privacyPassword: [UInt8] = [0, 0, 0, 0], destroyPassword: [UInt8] = [0, 0, 0, 0],
            easAFIPassword: [UInt8] = [0, 0, 0, 0]
        ) {
            self.signature = signature
            self.protectionPointer = protectionPointer
            self.protectionCondition = protectionCondition
            self.easEnabled = easEnabled
            self.easLocked = easLocked
            self.pageProtectionLocked = pageProtectionLocked
            self.privacyMode = privacyMode
            self.readPassword = readPassword
            self.writePassword = writePassword
            self.privacyPassword = privacyPassword
            self.destroyPassword = destroyPassword
            self.easAFIPassword = easAFIPassword
        }
    }

    /// The SLIX2 feature flags GET NXP SYSTEM INFORMATION reports, least significant byte first:
    /// user memory protection, counter, EAS ID, EAS and AFI password protection, extended
    /// inventory read, EAS IR, originality signature, persistent quiet, privacy, destroy (0x0000357F).
    static let slix2FeatureFlags: [UInt8] = [0x7F, 0x35, 0x00, 0x00]

    /// Answers a custom command whose IC manufacturer code matched (ISO/IEC 15693-3:2009 §10.5).
    ///
    /// - SLIX2: GET NXP SYSTEM INFORMATION 0xAB (protection pointer, protection condition, lock
    ///   bits AFI/EAS/DSFID/PPL in bits 0–3, feature flags) and READ SIGNATURE 0xBD (32 bytes). Its
    ///   other custom commands (inventory reads, EAS, passwords, privacy, destroy, persistent
    ///   quiet) are not simulated and, like unknown codes, answer error 0x01. The SLIX2 has no
    ///   fast read commands (0xC0 and 0xC3 are ICODE DNA / NTAG 5 configuration commands).
    /// - ST25DV16K: Fast Read Single Block 0xC0, Fast Read Multiple Blocks 0xC3, Fast Extended
    ///   Read Single Block 0xC4, Fast Extended Read Multiple Blocks 0xC5: the same answers as the
    ///   standard reads, sent at twice the data rate (DS10925). Its configuration, mailbox and
    ///   password commands are not simulated and answer error 0x01.
    mutating func custom(_ request: ISO15693Request) -> TagAnswer {
        switch (model, request.code) {
        case (.icodeSLIX2, 0xAB):
            guard request.parameters.isEmpty else { return error(.notRecognized, request) }
            let settings = slix2 ?? SLIX2Settings()
            var lockBits: UInt8 = 0
            if isAFILocked { lockBits |= 0x01 }
            if settings.easLocked { lockBits |= 0x02 }
            if isDSFIDLocked { lockBits |= 0x04 }
            if settings.pageProtectionLocked { lockBits |= 0x08 }
            return ok(
                [settings.protectionPointer, settings.protectionCondition, lockBits] + Self.slix2FeatureFlags,
                request
            )
        case (.icodeSLIX2, 0xBD):
            guard request.parameters.isEmpty else { return error(.notRecognized, request) }
            return ok((slix2 ?? SLIX2Settings()).signature, request)
        case (.st25dv16k, 0xC0): return readSingleBlock(request, wide: false, fast: true)
        case (.st25dv16k, 0xC3): return readMultipleBlocks(request, wide: false, fast: true)
        case (.st25dv16k, 0xC4): return readSingleBlock(request, wide: true, fast: true)
        case (.st25dv16k, 0xC5): return readMultipleBlocks(request, wide: true, fast: true)
        default: return error(.notSupported, request)
        }
    }
}
