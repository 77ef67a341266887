extension ISO15693Tag: TagImageRepresentable {
    /// The whole non-volatile state of an ISO/IEC 15693 tag, as a tag image stores it.
    ///
    /// ```json
    /// { "model": "icodeSLIX2", "uid": "e00401083a5c7192", "afi": "00", "dsfid": "00",
    ///   "afiLocked": false, "dsfidLocked": false,
    ///   "blocks": ["e1402701", "0300fe00", "00000000", …],
    ///   "lockedBlocks": [0],
    ///   "slix2": { "signature": "00…", "protectionPointer": "00", "protectionCondition": "00",
    ///              "easEnabled": false, "easLocked": false, "pageProtectionLocked": false,
    ///              "privacyMode": false,
    ///              "passwords": { "read": "00000000", "write": "00000000", "privacy": "00000000",
    ///                             "destroy": "00000000", "easAFI": "00000000" } } }
    /// ```
    public struct Image: Codable, Sendable, Hashable {
        /// The chip.
        public var model: Model
        /// 8 bytes, most significant first.
        public var uid: HexBytes
        /// One byte.
        public var afi: HexBytes
        /// One byte.
        public var dsfid: HexBytes
        /// Whether Lock AFI has been executed.
        public var afiLocked: Bool
        /// Whether Lock DSFID has been executed.
        public var dsfidLocked: Bool
        /// Every block, 4 bytes each.
        public var blocks: [HexBytes]
        /// The numbers of the locked blocks, ascending.
        public var lockedBlocks: [Int]
        /// The SLIX2's own settings (absent for other chips; defaults when absent for a SLIX2).
        public var slix2: SLIX2?

        /// Creates an image from its fields as given; ``ISO15693Tag/init(image:)`` checks them.
        public init(
            model: Model, uid: HexBytes, afi: HexBytes, dsfid: HexBytes, afiLocked: Bool, dsfidLocked: Bool,
            blocks: [HexBytes], lockedBlocks: [Int], slix2: SLIX2? = nil
        ) {
            self.model = model
            self.uid = uid
            self.afi = afi
            self.dsfid = dsfid
            self.afiLocked = afiLocked
            self.dsfidLocked = dsfidLocked
            self.blocks = blocks
            self.lockedBlocks = lockedBlocks
            self.slix2 = slix2
        }

        /// The image form of ``ISO15693Tag/SLIX2Settings``.
        public struct SLIX2: Codable, Sendable, Hashable {
            /// The 32-byte ECC originality signature.
            public var signature: HexBytes
            /// The protection pointer (one byte): the first block of the high page; below the model's block count.
            public var protectionPointer: HexBytes
            /// The protection condition (one byte); must be `00`, as password-protected pages are not simulated.
            public var protectionCondition: HexBytes
            /// The EAS bit.
            public var easEnabled: Bool
            /// Whether LOCK EAS has been executed.
            public var easLocked: Bool
            /// Whether LOCK PAGE PROTECTION CONDITION has been executed.
            public var pageProtectionLocked: Bool
            /// Whether the tag is in privacy mode; must be `false`, as privacy mode is not simulated.
            public var privacyMode: Bool
            /// The five passwords.
            public var passwords: Passwords

            /// The five 32-bit passwords, 4 bytes each.
            public struct Passwords: Codable, Sendable, Hashable {
                /// The read password (4 bytes).
                public var read: HexBytes
                /// The write password (4 bytes).
                public var write: HexBytes
                /// The privacy password (4 bytes).
                public var privacy: HexBytes
                /// The destroy password (4 bytes).
                public var destroy: HexBytes
                /// The EAS/AFI password (4 bytes).
                public var easAFI: HexBytes
            }
        }
    }

    /// The tag's non-volatile state; the Ready/Quiet/Selected state is volatile and not kept.
    public var image: Image {
        Image(
            model: model, uid: HexBytes(uid), afi: [afi], dsfid: [dsfid], afiLocked: isAFILocked,
            dsfidLocked: isDSFIDLocked, blocks: blocks.map(HexBytes.init),
            lockedBlocks: lockedBlocks.indices.filter { lockedBlocks[$0] },
            slix2: slix2.map { settings in
                Image.SLIX2(
                    signature: HexBytes(settings.signature), protectionPointer: [settings.protectionPointer],
                    protectionCondition: [settings.protectionCondition], easEnabled: settings.easEnabled,
                    easLocked: settings.easLocked, pageProtectionLocked: settings.pageProtectionLocked,
                    privacyMode: settings.privacyMode,
                    passwords: .init(
                        read: HexBytes(settings.readPassword), write: HexBytes(settings.writePassword),
                        privacy: HexBytes(settings.privacyPassword), destroy: HexBytes(settings.destroyPassword),
                        easAFI: HexBytes(settings.easAFIPassword)
                    )
                )
            }
        )
    }

    /// Rebuilds a tag from an image, in the Ready state.
    ///
    /// - Throws: ``TagImageError`` `.invalidValue` naming the field: AFI, DSFID, protection pointer or condition not one
    /// byte; a locked block that does not exist or is listed twice; or whatever
    /// ``ISO15693Tag/init(model:uid:blocks:afi:dsfid:afiLocked:dsfidLocked:lockedBlocks:slix2:)`` refuses.
    public init(image: Image) throws(TagImageError) {
        let afi = try Self.singleByte(image.afi, field: "afi")
        let dsfid = try Self.singleByte(image.dsfid, field: "dsfid")
        var locks = Array(repeating: false, count: image.model.blockCount)
        for (index, number) in image.lockedBlocks.enumerated() {
            guard locks.indices.contains(number) else {
                throw TagImageError(.invalidValue, field: "lockedBlocks[\(index)]", "block \(number) does not exist")
            }
            guard !locks[number] else {
                throw TagImageError(.invalidValue, field: "lockedBlocks[\(index)]", "block \(number) is listed twice")
            }
            locks[number] = true
        }
        var settings: SLIX2Settings?
        if let slix2 = image.slix2 {
            settings = SLIX2Settings(
                signature: slix2.signature.bytes,
                protectionPointer: try Self.singleByte(slix2.protectionPointer, field: "slix2.protectionPointer"),
                protectionCondition: try Self.singleByte(slix2.protectionCondition, field: "slix2.protectionCondition"),
                easEnabled: slix2.easEnabled, easLocked: slix2.easLocked,
                pageProtectionLocked: slix2.pageProtectionLocked, privacyMode: slix2.privacyMode,
                readPassword: slix2.passwords.read.bytes, writePassword: slix2.passwords.write.bytes,
                privacyPassword: slix2.passwords.privacy.bytes, destroyPassword: slix2.passwords.destroy.bytes,
                easAFIPassword: slix2.passwords.easAFI.bytes
            )
        }
        try self.init(
            model: image.model, uid: image.uid.bytes, blocks: image.blocks.map(\.bytes), afi: afi, dsfid: dsfid,
            afiLocked: image.afiLocked, dsfidLocked: image.dsfidLocked, lockedBlocks: locks, slix2: settings
        )
    }

    private static func singleByte(_ value: HexBytes, field: String) throws(TagImageError) -> UInt8 {
        guard value.bytes.count == 1, let byte = value.bytes.first else {
            throw TagImageError(.invalidValue, field: field, "one byte, not \(value.bytes.count)")
        }
        return byte
    }
}
