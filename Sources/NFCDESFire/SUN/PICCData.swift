import NFCBytes

/// The PICC data a tag mirrors into a SUN message: its UID and read counter, and which of them
/// it mirrors.
///
/// Encrypted (NT4H2421Gx §9.3.4, AN12196 §3.4.2): one block, decrypted with KSDMMetaRead —
/// PICCDataTag (bit 7: UID mirrored, bit 6: SDMReadCtr mirrored, bits 3–0: the UID's length,
/// 7), the UID, SDMReadCtr least significant byte first, then random padding. In AES mode the
/// block is AES-encrypted (16 bytes); in LRP mode (§9.3.4.2) an 8-byte PICCRand comes first and
/// the block is LRICB-encrypted under KSDMMetaRead's updated key 0 with PICCRand as the counter,
/// unpadded (24 bytes).
public struct PICCData: Sendable, Hashable {
    /// PICCDataTag; `nil` for plain mirrors, which have none.
    public var tag: UInt8?
    /// The 7-byte UID, when mirrored.
    public var uid: [UInt8]?
    /// SDMReadCtr, when mirrored.
    public var counter: UInt32?

    /// PICC data from its parts (plain mirrors).
    public init(tag: UInt8? = nil, uid: [UInt8]?, counter: UInt32?) {
        self.tag = tag
        self.uid = uid
        self.counter = counter
    }

    /// Decrypts PICCENCData: 16 bytes in AES mode, 24 (PICCRand ‖ one block) in LRP mode.
    /// - Throws: ``DESFireError`` `.malformedMessage` for data of another length;
    ///   `.wrongKey` when the block does not decrypt into a PICCDataTag the chip writes (a UID
    ///   length other than 7, or nothing mirrored) — the mark of a wrong KSDMMetaRead.
    public init(decrypting encrypted: [UInt8], metaReadKey: [UInt8]) throws(DESFireError) {
        let plain: [UInt8]
        switch encrypted.count {
        case 16: plain = try DESFireCrypto.block(encrypted, key: metaReadKey, decrypt: true)
        case 24:
            var counter = Array(encrypted.prefix(8))
            plain = try LeakageResilientPrimitive(key: metaReadKey).decrypt(
                Array(encrypted.suffix(16)), updatedKey: 0, counter: &counter, padding: false)
        default:
            throw DESFireError(
                .malformedMessage, "encrypted PICC data is 16 bytes (AES) or 24 (LRP: PICCRand and a block), not \(encrypted.count)")
        }
        let tag = plain[0]
        let mirrorsUID = tag & 0x80 != 0
        let mirrorsCounter = tag & 0x40 != 0
        guard mirrorsUID || mirrorsCounter, !mirrorsUID || tag & 0x0F == 7, tag & 0x30 == 0 else {
            throw DESFireError(
                .wrongKey,
                "the PICC data decrypts to PICCDataTag \(Hex.encode([tag], uppercase: true))h, which no tag writes: is the SDM meta read key right?"
            )
        }
        var index = 1
        var uid: [UInt8]?
        if mirrorsUID {
            uid = Array(plain[1..<8])
            index = 8
        }
        var counter: UInt32?
        if mirrorsCounter {
            counter = UInt32(plain[index]) | UInt32(plain[index + 1]) << 8 | UInt32(plain[index + 2]) << 16
        }
        self.init(tag: tag, uid: uid, counter: counter)
    }
}
