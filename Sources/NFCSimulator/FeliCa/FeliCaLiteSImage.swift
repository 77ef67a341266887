/// The tag image of a FeliCa Lite-S: IDm, PMm and every non-volatile block.
///
/// D_ID, SER_C and SYS_C follow from the IDm and PMm, and RC, MAC, MAC_A and STATE are volatile
/// (FeliCa Lite-S User's Manual §3.3), so the image does not hold them.
extension FeliCaLiteSTag: TagImageRepresentable {
    /// The whole non-volatile state of a FeliCa Lite-S.
    public struct Image: Codable, Sendable, Hashable {
        /// Manufacture ID (8 bytes).
        public var idm: HexBytes
        /// Manufacture parameter (8 bytes; IC type `F1`, or `F2` for FeliCa Link in Lite-S mode).
        public var pmm: HexBytes
        /// S_PAD0–S_PAD13, 16 bytes each.
        public var userBlocks: [HexBytes]
        /// REG, the subtraction register (REGA 4, REGB 4, REGC 8 bytes).
        public var register: HexBytes
        /// ID block: the IDm again, DFC (2 bytes), 6 bytes of data.
        public var idBlock: HexBytes
        /// CKV block: key version (2 bytes, little endian), 14 bytes `00`.
        public var cardKeyVersion: HexBytes
        /// CK block: the card key (16 bytes).
        public var cardKey: HexBytes
        /// MC block (16 bytes; bytes 13–15 `00`).
        public var memoryConfiguration: HexBytes
        /// WCNT, the write counter (0 to 0xFFFFFF).
        public var writeCount: UInt32

        /// Creates an image from its fields as given; nothing is checked until ``FeliCaLiteSTag/init(image:)``.
        public init(
            idm: HexBytes, pmm: HexBytes, userBlocks: [HexBytes], register: HexBytes, idBlock: HexBytes,
            cardKeyVersion: HexBytes, cardKey: HexBytes, memoryConfiguration: HexBytes, writeCount: UInt32
        ) {
            self.idm = idm
            self.pmm = pmm
            self.userBlocks = userBlocks
            self.register = register
            self.idBlock = idBlock
            self.cardKeyVersion = cardKeyVersion
            self.cardKey = cardKey
            self.memoryConfiguration = memoryConfiguration
            self.writeCount = writeCount
        }
    }

    /// The card's non-volatile state: IDm, PMm, the 14 user blocks, REG, ID, CKV, CK, MC and WCNT.
    public var image: Image {
        Image(
            idm: HexBytes(idm), pmm: HexBytes(pmm),
            userBlocks: userBlocks.prefix(FeliCaLiteSBlock.userBlockCount).map(HexBytes.init),
            register: HexBytes(userBlocks[Int(FeliCaLiteSBlock.register)]),
            idBlock: HexBytes(idBlock), cardKeyVersion: HexBytes(cardKeyVersionBlock), cardKey: HexBytes(cardKey),
            memoryConfiguration: HexBytes(memoryConfiguration.bytes), writeCount: writeCount
        )
    }

    /// Rebuilds a card from an image; its volatile state (RC, time-slot choice) starts fresh.
    ///
    /// - Throws: ``TagImageError`` `.invalidValue` naming the field when a block does not have 16 bytes (IDm and PMm 8),
    /// the PMm's IC type is not `F1` or `F2`, there are not 14 user blocks, the ID block does not start with the IDm,
    /// bytes 2–15 of CKV or 13–15 of MC are not `00`, or WCNT does not fit in 24 bits.
    public init(image: Image) throws(TagImageError) {
        let idm = try FeliCaImageCheck.bytes(image.idm, count: 8, field: "idm")
        let pmm = try FeliCaImageCheck.bytes(image.pmm, count: 8, field: "pmm")
        guard pmm[1] == 0xF1 || pmm[1] == 0xF2 else {
            throw TagImageError(.invalidValue, field: "pmm", "IC type \(pmm[1]) is not a FeliCa Lite-S (F1 or F2)")
        }
        guard image.userBlocks.count == FeliCaLiteSBlock.userBlockCount else {
            throw TagImageError(.invalidValue, field: "userBlocks", "a FeliCa Lite-S has 14 user blocks, not \(image.userBlocks.count)")
        }
        var blocks: [[UInt8]] = []
        for (index, block) in image.userBlocks.enumerated() {
            blocks.append(try FeliCaImageCheck.bytes(block, count: 16, field: "userBlocks[\(index)]"))
        }
        blocks.append(try FeliCaImageCheck.bytes(image.register, count: 16, field: "register"))
        let idBlock = try FeliCaImageCheck.bytes(image.idBlock, count: 16, field: "idBlock")
        guard Array(idBlock.prefix(8)) == idm else {
            throw TagImageError(.invalidValue, field: "idBlock", "the first 8 bytes of the ID block are the IDm")
        }
        let keyVersion = try FeliCaImageCheck.bytes(image.cardKeyVersion, count: 16, field: "cardKeyVersion")
        guard keyVersion.dropFirst(2).allSatisfy({ $0 == 0 }) else {
            throw TagImageError(.invalidValue, field: "cardKeyVersion", "bytes 2–15 of CKV are 00")
        }
        let key = try FeliCaImageCheck.bytes(image.cardKey, count: 16, field: "cardKey")
        let configuration = try FeliCaImageCheck.bytes(image.memoryConfiguration, count: 16, field: "memoryConfiguration")
        guard configuration.suffix(3).allSatisfy({ $0 == 0 }) else {
            throw TagImageError(.invalidValue, field: "memoryConfiguration", "bytes 13–15 of MC are reserved (00)")
        }
        guard image.writeCount <= 0xFF_FFFF else {
            throw TagImageError(.invalidValue, field: "writeCount", "WCNT has 24 bits")
        }
        self.init(idm: idm)
        self.pmm = pmm
        self.userBlocks = blocks
        self.idBlock = idBlock
        self.cardKeyVersionBlock = keyVersion
        self.cardKey = key
        self.memoryConfiguration = FeliCaLiteSMemoryConfiguration(bytes: configuration)
        self.writeCount = image.writeCount
    }
}

/// Checks shared by the FeliCa tag images.
enum FeliCaImageCheck {
    /// The bytes, when there are exactly `count` of them.
    static func bytes(_ value: HexBytes, count: Int, field: String) throws(TagImageError) -> [UInt8] {
        guard value.bytes.count == count else {
            throw TagImageError(.invalidValue, field: field, "\(count) bytes expected, \(value.bytes.count) given")
        }
        return value.bytes
    }

    /// A 16-bit code written as 2 bytes, most significant first.
    static func code(_ value: HexBytes, field: String) throws(TagImageError) -> UInt16 {
        let bytes = try bytes(value, count: 2, field: field)
        return UInt16(bytes[0]) << 8 | UInt16(bytes[1])
    }

    /// The 2-byte form of a 16-bit code.
    static func hex(_ code: UInt16) -> HexBytes {
        HexBytes([UInt8(code >> 8), UInt8(code & 0xFF)])
    }
}
