extension Type2Tag {
    /// A Type 2 chip's non-volatile state as saved in a tag image.
    ///
    /// `memory` holds every page, UID to PACK, as stored (PWD included, though it reads back as
    /// zeros). Authentication and selection are volatile and not saved.
    public struct Image: Codable, Sendable, Hashable {
        /// The chip.
        public var model: Model
        /// The 7-byte UID.
        public var uid: HexBytes
        /// The whole memory, `model.pageCount` × 4 bytes.
        public var memory: HexBytes
        /// The one-way counters: one on NTAG21x (the NFC counter), three on Ultralight EV1; 24-bit.
        public var counters: [UInt32]
        /// Ultralight EV1's three counter tearing flags (BDh: intact); empty on NTAG21x.
        public var tearingFlags: HexBytes
        /// The 32-byte originality signature.
        public var signature: HexBytes
        /// Unsuccessful PWD_AUTH attempts counted towards AUTHLIM (0–7).
        public var failedAuthentications: Int
        /// For a copy of a real chip: the pages that could not be read (absent in a whole image).
        public var unreadPages: [PageSpan]?

        /// Pages `first` through `last`.
        public struct PageSpan: Codable, Sendable, Hashable {
            /// The first page of the span.
            public var first: Int
            /// The last page of the span.
            public var last: Int

            /// A span from its first and last page.
            public init(first: Int, last: Int) {
                self.first = first
                self.last = last
            }
        }

        /// Creates an image from its fields as given; ``Type2Tag/init(image:)`` checks them.
        public init(
            model: Model, uid: HexBytes, memory: HexBytes, counters: [UInt32], tearingFlags: HexBytes, signature: HexBytes,
            failedAuthentications: Int, unreadPages: [PageSpan]? = nil
        ) {
            self.model = model
            self.uid = uid
            self.memory = memory
            self.counters = counters
            self.tearingFlags = tearingFlags
            self.signature = signature
            self.failedAuthentications = failedAuthentications
            self.unreadPages = unreadPages
        }
    }

    /// The chip's non-volatile state: memory, counters, tearing flags, signature and failed PWD_AUTH count.
    public var image: Image {
        Image(
            model: model, uid: HexBytes(uid), memory: HexBytes(memory), counters: counters,
            tearingFlags: HexBytes(tearingFlags), signature: HexBytes(signature),
            failedAuthentications: failedAuthentications,
            unreadPages: unreadPages.isEmpty ? nil : unreadPages.map { Image.PageSpan(first: $0.lowerBound, last: $0.upperBound) }
        )
    }

    /// Rebuilds a chip from an image, powered off (``powerOn()`` latches its configuration).
    ///
    /// - Throws: ``TagImageError`` `.invalidValue` at `uid` (not 7 bytes, or UID0 = 88h, the
    ///   cascade tag), `memory` (not the model's size, or pages 00h–02h disagreeing with the UID
    ///   and its check bytes), `counters` (wrong count, or a value past FFFFFFh), `tearingFlags`,
    ///   `signature` (not 32 bytes), `failedAuthentications` (outside 0–7) or `unreadPages` (a span
    ///   outside the memory, reversed, or out of order).
    public init(image: Image) throws(TagImageError) {
        let model = image.model
        let uid = image.uid.bytes
        guard uid.count == 7 else {
            throw TagImageError(.invalidValue, field: "uid", "a Type 2 chip has a 7-byte UID, not \(uid.count) bytes")
        }
        guard uid[0] != 0x88 else {
            throw TagImageError(.invalidValue, field: "uid", "UID0 cannot be 88h, the cascade tag (ISO/IEC 14443-3)")
        }
        let memory = image.memory.bytes
        guard memory.count == model.memorySize else {
            throw TagImageError(
                .invalidValue, field: "memory", "\(model) has \(model.memorySize) bytes of memory, the image \(memory.count)")
        }
        let expected = Self.serialNumberPages(uid, lockBytes: Array(memory[10..<12]))
        for (offset, byte) in expected.enumerated() where offset != 9 && memory[offset] != byte {
            let what = offset == 3 ? "BCC0" : offset == 8 ? "BCC1" : "the UID"
            throw TagImageError(
                .invalidValue, field: "memory",
                "byte \(offset) of pages 00h–02h is \(Self.hex(memory[offset])), \(what) gives \(Self.hex(byte))")
        }
        guard image.counters.count == model.counterCount else {
            throw TagImageError(
                .invalidValue, field: "counters", "\(model) has \(model.counterCount) counters, the image \(image.counters.count)")
        }
        if let index = image.counters.firstIndex(where: { $0 > 0xFF_FFFF }) {
            throw TagImageError(
                .invalidValue, field: "counters[\(index)]", "a counter has 24 bits; \(image.counters[index]) is past FFFFFFh")
        }
        let flags = image.tearingFlags.bytes
        guard flags.count == (model.isNTAG ? 0 : 3) else {
            throw TagImageError(
                .invalidValue, field: "tearingFlags", "\(model) has \(model.isNTAG ? 0 : 3) tearing flags, the image \(flags.count)")
        }
        guard image.signature.bytes.count == 32 else {
            throw TagImageError(
                .invalidValue, field: "signature", "the originality signature has 32 bytes, not \(image.signature.bytes.count)")
        }
        guard (0...7).contains(image.failedAuthentications) else {
            throw TagImageError(
                .invalidValue, field: "failedAuthentications", "AUTHLIM counts 0–7 attempts, not \(image.failedAuthentications)")
        }
        var unread: [ClosedRange<Int>] = []
        for (index, span) in (image.unreadPages ?? []).enumerated() {
            guard span.first <= span.last, span.first >= 0, span.last < model.pageCount else {
                throw TagImageError(
                    .invalidValue, field: "unreadPages[\(index)]",
                    "pages \(span.first)–\(span.last) are not a span of \(model)'s \(model.pageCount) pages")
            }
            if let previous = unread.last, span.first <= previous.upperBound + 1 {
                throw TagImageError(
                    .invalidValue, field: "unreadPages[\(index)]", "spans must be in page order, apart, and not overlap")
            }
            unread.append(span.first...span.last)
        }
        self.init(
            model: model, uid: uid, memory: memory, counters: image.counters, tearingFlags: flags,
            signature: image.signature.bytes, failedAuthentications: image.failedAuthentications
        )
        unreadPages = unread
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]) + "h"
    }
}
