/// Turns a Flipper Zero dump into a virtual tag.
public enum FlipperImport {
    /// The virtual tag a dump describes.
    ///
    /// NTAG/Ultralight: the model comes from the recorded GET_VERSION answer, else the type name,
    /// else the page count; every page must be present. Flipper's counters 0–2 map to the EV1's
    /// three counters; on NTAG21x counter 2 is the NFC counter. ISO 15693: the model comes from the
    /// IC manufacturer code in the UID and the block count (ICODE SLIX2: NXP, 80 blocks;
    /// ST25DV16K: STMicroelectronics, 512 blocks).
    /// - Throws: ``FlipperImportError`` when no simulated chip matches, or ``TagImageError`` when
    ///   the dump's contents cannot exist on the matched chip (a BCC that disagrees with the UID…).
    public static func tag(from dump: FlipperDump) throws -> any VirtualTag {
        switch dump {
        case .ultralight(let ultralight): try type2Tag(ultralight)
        case .iso15693(let vicinity): try iso15693Tag(vicinity)
        }
    }

    static func type2Tag(_ dump: FlipperDump.Ultralight) throws -> Type2Tag {
        let byVersion = dump.version.flatMap { version in Type2Tag.Model.allCases.first { $0.versionBytes == version } }
        let byName = dump.typeName.flatMap { name -> Type2Tag.Model? in
            switch name.uppercased() {
            case "NTAG213": .ntag213
            case "NTAG215": .ntag215
            case "NTAG216": .ntag216
            case "MIFARE ULTRALIGHT 11", "ULTRALIGHT EV1 11", "MIFARE ULTRALIGHT EV1 11": .ultralightEV1MF0UL11
            case "MIFARE ULTRALIGHT 21", "ULTRALIGHT EV1 21", "MIFARE ULTRALIGHT EV1 21": .ultralightEV1MF0UL21
            default: nil
            }
        }
        let byPages = Type2Tag.Model.allCases.first { $0.pageCount == dump.pages.count }
        guard let model = byVersion ?? byName ?? byPages else {
            throw FlipperImportError(
                line: nil, "no simulated NTAG/Ultralight has \(dump.pages.count) pages (\(dump.typeName ?? "unnamed type"))")
        }
        guard dump.pages.count == model.pageCount else {
            throw FlipperImportError(line: nil, "a \(model) has \(model.pageCount) pages; the dump holds \(dump.pages.count)")
        }
        let counters: [UInt32]
        let tearing: [UInt8]
        if model.isNTAG {
            counters = [dump.counters.count == 3 ? dump.counters[2] : 0]
            tearing = []
        } else {
            counters = dump.counters.count == 3 ? dump.counters : [0, 0, 0]
            tearing = dump.tearing.count == 3 ? dump.tearing : [0xBD, 0xBD, 0xBD]
        }
        let signature = dump.signature ?? Type2Tag(model: model, uid: dump.uid).image.signature.bytes
        // PWD and PACK read back as zeros (NTAG213/215/216 §8.8.3): a dump holding zeros there
        // did not know them, and says so, so that `nfc restore --config` does not write them.
        let secretsUnknown = [model.passwordPage, model.packPage].allSatisfy { dump.pages[$0] == [0, 0, 0, 0] }
        let image = Type2Tag.Image(
            model: model, uid: HexBytes(dump.uid), memory: HexBytes(dump.pages.flatMap { $0 }),
            counters: counters, tearingFlags: HexBytes(tearing), signature: HexBytes(signature),
            failedAuthentications: dump.failedAuthenticationAttempts ?? 0,
            unreadPages: secretsUnknown ? [Type2Tag.Image.PageSpan(first: model.passwordPage, last: model.packPage)] : nil
        )
        return try Type2Tag(image: image)
    }

    static func iso15693Tag(_ dump: FlipperDump.ISO15693) throws -> ISO15693Tag {
        guard
            let model = ISO15693Tag.Model.allCases.first(where: {
                $0.icManufacturerCode == dump.uid[1] && $0.blockCount == dump.blocks.count && $0.blockSize == dump.blockSize
            })
        else {
            throw FlipperImportError(
                line: nil,
                "no simulated ISO 15693 chip has IC manufacturer \(dump.uid[1]) with \(dump.blocks.count) blocks of \(dump.blockSize) bytes (ICODE SLIX2: 04, 80 × 4; ST25DV16K: 02, 512 × 4)"
            )
        }
        return try ISO15693Tag(
            model: model, uid: dump.uid, blocks: dump.blocks, afi: dump.afi, dsfid: dump.dsfid,
            afiLocked: dump.afiLocked, dsfidLocked: dump.dsfidLocked, lockedBlocks: dump.blockLocked
        )
    }
}
