extension ISO15693Tag {
    /// A factory-fresh tag with the model's sample UID: memory all zero (no capability container),
    /// AFI and DSFID 0, nothing locked.
    public static func blank(_ model: Model) -> ISO15693Tag {
        make(model: model, uid: model.sampleUID, memory: Array(repeating: 0, count: model.memorySize))
    }

    /// A tag with the model's sample UID formatted for NDEF: the NFC Forum Type 5 capability
    /// container (``Model/capabilityContainer``) followed by an empty NDEF message TLV `03 00` and
    /// the terminator TLV `FE` (NFC Forum T5T 1.0 §4.3–§4.4).
    public static func formatted(_ model: Model) -> ISO15693Tag {
        make(model: model, uid: model.sampleUID, memory: formattedMemory(model))
    }

    /// A blank or NDEF-formatted tag with a given UID (most significant byte first).
    /// - Throws: ``TagImageError`` `.invalidValue` at `uid` when the UID cannot belong to the model.
    public init(model: Model, uid: [UInt8], formatted: Bool = false) throws(TagImageError) {
        if let problem = model.uidProblem(uid) { throw TagImageError(.invalidValue, field: "uid", problem) }
        self = Self.make(
            model: model, uid: uid,
            memory: formatted ? Self.formattedMemory(model) : Array(repeating: 0, count: model.memorySize)
        )
    }

    /// A tag rebuilt from a memory dump, e.g. a Flipper Zero `.nfc` file of an ISO/IEC 15693 tag.
    ///
    /// - Parameters:
    ///   - model: the chip.
    ///   - uid: 8 bytes, most significant first (`E0 …`).
    ///   - blocks: every block of the chip, `model.blockCount` blocks of 4 bytes.
    ///   - afi: application family identifier.
    ///   - dsfid: data storage format identifier.
    ///   - afiLocked: whether the AFI is locked.
    ///   - dsfidLocked: whether the DSFID is locked.
    ///   - lockedBlocks: per block, whether it is locked (a dump's block security status bit 0); empty
    ///     for none.
    ///   - slix2: the SLIX2's own settings (signature, protection, passwords); `nil` for defaults.
    /// - Throws: ``TagImageError`` `.invalidValue` naming the field that describes no real chip.
    public init(
        model: Model, uid: [UInt8], blocks: [[UInt8]], afi: UInt8 = 0, dsfid: UInt8 = 0,
        afiLocked: Bool = false, dsfidLocked: Bool = false, lockedBlocks: [Bool] = [],
        slix2: SLIX2Settings? = nil
    ) throws(TagImageError) {
        if let problem = model.uidProblem(uid) { throw TagImageError(.invalidValue, field: "uid", problem) }
        guard blocks.count == model.blockCount else {
            throw TagImageError(.invalidValue, field: "blocks", "a \(model) has \(model.blockCount) blocks, not \(blocks.count)")
        }
        for (index, block) in blocks.enumerated() where block.count != model.blockSize {
            throw TagImageError(.invalidValue, field: "blocks[\(index)]", "a block holds \(model.blockSize) bytes, not \(block.count)")
        }
        let locks = lockedBlocks.isEmpty ? Array(repeating: false, count: model.blockCount) : lockedBlocks
        guard locks.count == model.blockCount else {
            throw TagImageError(.invalidValue, field: "lockedBlocks", "one lock state per block: \(model.blockCount), not \(locks.count)")
        }
        if !model.supportsLockBlock, let index = locks.firstIndex(of: true) {
            throw TagImageError(
                .invalidValue, field: "lockedBlocks[\(index)]", "a \(model) has no Lock Block command; its blocks cannot be locked")
        }
        let settings = try Self.checkedSLIX2(slix2, model: model)
        self.init(
            model: model, uid: uid, memory: blocks.flatMap { $0 }, lockedBlocks: locks, afi: afi, dsfid: dsfid,
            isAFILocked: afiLocked, isDSFIDLocked: dsfidLocked, slix2: settings
        )
    }

    /// Checks SLIX2 settings against the model; returns the settings the tag keeps.
    static func checkedSLIX2(_ settings: SLIX2Settings?, model: Model) throws(TagImageError) -> SLIX2Settings? {
        guard model == .icodeSLIX2 else {
            guard settings == nil else { throw TagImageError(.invalidValue, field: "slix2", "only an ICODE SLIX2 has SLIX2 settings") }
            return nil
        }
        let settings = settings ?? SLIX2Settings()
        guard settings.signature.count == 32 else {
            throw TagImageError(
                .invalidValue, field: "slix2.signature", "the originality signature has 32 bytes, not \(settings.signature.count)")
        }
        guard Int(settings.protectionPointer) < model.blockCount else {
            throw TagImageError(
                .invalidValue, field: "slix2.protectionPointer", "the protection pointer names a block below \(model.blockCount)")
        }
        guard settings.protectionCondition == 0 else {
            throw TagImageError(.invalidValue, field: "slix2.protectionCondition", "password-protected pages are not simulated")
        }
        guard !settings.privacyMode else {
            throw TagImageError(.invalidValue, field: "slix2.privacyMode", "privacy mode is not simulated")
        }
        let passwords: [(String, [UInt8])] = [
            ("read", settings.readPassword), ("write", settings.writePassword), ("privacy", settings.privacyPassword),
            ("destroy", settings.destroyPassword), ("easAFI", settings.easAFIPassword),
        ]
        for (name, password) in passwords where password.count != 4 {
            throw TagImageError(.invalidValue, field: "slix2.passwords.\(name)", "a password has 4 bytes, not \(password.count)")
        }
        return settings
    }

    private static func make(model: Model, uid: [UInt8], memory: [UInt8]) -> ISO15693Tag {
        ISO15693Tag(
            model: model, uid: uid, memory: memory, lockedBlocks: Array(repeating: false, count: model.blockCount),
            afi: 0, dsfid: 0, isAFILocked: false, isDSFIDLocked: false,
            slix2: model == .icodeSLIX2 ? SLIX2Settings() : nil
        )
    }

    private static func formattedMemory(_ model: Model) -> [UInt8] {
        var memory = model.capabilityContainer + [0x03, 0x00, 0xFE]
        memory += Array(repeating: 0, count: model.memorySize - memory.count)
        return memory
    }
}
