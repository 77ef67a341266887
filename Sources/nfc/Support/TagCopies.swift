import NFCSimulator
import NFCTags

/// Copies between real tags and tag images: what `nfc dump -o` saves and `nfc restore` writes back.
///
/// A bridge between the engines' reading of a chip (``Type2Capture``) and the simulator's
/// (``Type2Tag``), which stay independent of each other (ARCHITECTURE.md): the two meet only here,
/// through the bytes of the chip. It lives in the tool, the one module that links both whatever
/// the package traits (NFCReaders links the simulator only with the `Simulator` trait).
enum TagCopies {
    /// A virtual tag holding what was read: the model's factory values where nothing could be
    /// read, those pages listed in ``Type2Tag/unreadPages``.
    /// - Parameters:
    ///   - capture: what the engine read.
    ///   - password: the PWD that opened the tag, if one did: the copy then holds it (and `pack`).
    ///   - pack: the PACK the tag answered that password with.
    /// - Throws: ``TagImageError`` `.invalidValue` when the UID pages could not be read or the
    ///   pages contradict each other (a UID without its check bytes).
    static func virtualTag(from capture: Type2Capture, password: [UInt8]? = nil, pack: [UInt8]? = nil) throws(TagImageError)
        -> Type2Tag
    {
        guard let model = Type2Tag.Model(rawValue: capture.model.rawValue) else {
            throw TagImageError(.unknownType, field: "type", "the simulator has no \(capture.model)")
        }
        guard let uid = capture.uid, capture.pages.count == model.pageCount else {
            throw TagImageError(.invalidValue, field: "uid", "pages 00h–01h (the UID) could not be read")
        }
        var pages = capture.pages
        if let password, password.count == 4 { pages[model.passwordPage] = password }
        if let pack, pack.count == 2 { pages[model.packPage] = pack + [0x00, 0x00] }
        let factory = Type2Tag(model: model, uid: uid, signature: capture.signature).image
        var memory = factory.memory.bytes
        for (page, bytes) in pages.enumerated() {
            if let bytes, bytes.count == 4 { memory.replaceSubrange(page * 4..<page * 4 + 4, with: bytes) }
        }
        let unread = Type2Capture.spans(of: pages)
        let image = Type2Tag.Image(
            model: model, uid: factory.uid, memory: HexBytes(memory),
            counters: zip(factory.counters, capture.counters).map { $1 ?? $0 },
            tearingFlags: factory.tearingFlags, signature: factory.signature, failedAuthentications: 0,
            unreadPages: unread.isEmpty ? nil : unread.map { Type2Tag.Image.PageSpan(first: $0.lowerBound, last: $0.upperBound) }
        )
        return try Type2Tag(image: image)
    }

    /// A virtual Topaz holding what was read (every block; the model from HR0).
    /// - Throws: ``TagImageError`` `.unknownType` for a Type 1 chip the simulator does not have.
    static func virtualTag(from capture: Type1Capture) throws(TagImageError) -> Type1Tag {
        guard let model = Type1Tag.Model.allCases.first(where: { $0.headerROM0 == capture.headerROM.first }) else {
            throw TagImageError(
                .unknownType, field: "type",
                "the simulator has no Type 1 tag with HR0 \(capture.headerROM.first.map { String($0, radix: 16) } ?? "?")")
        }
        return try Type1Tag(image: Type1Tag.Image(model: model, memory: HexBytes(capture.memory)))
    }

    /// What a virtual Topaz's image says about the chip, for ``Type1Engine/restore(_:on:)``.
    static func capture(of tag: Type1Tag) -> Type1Capture {
        Type1Capture(headerROM: [tag.model.headerROM0, tag.model.headerROM1], memory: tag.image.memory.bytes)
    }

    /// What a virtual tag's image says about the chip, for ``Type2Engine/restore(_:parts:authenticated:on:)``:
    /// every page, those the copy could not read left out.
    static func capture(of tag: Type2Tag) -> Type2Capture? {
        guard let model = Type2Model(rawValue: tag.model.rawValue), let version = Type2Version(tag.model.versionBytes) else { return nil }
        var pages: [[UInt8]?] = (0..<tag.model.pageCount).map { tag.page($0) }
        for span in tag.unreadPages {
            for page in span where page < pages.count { pages[page] = nil }
        }
        return Type2Capture(model: model, version: version, pages: pages, signature: tag.signature, counters: tag.counters.map { $0 })
    }
}
