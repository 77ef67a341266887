/// Everything a Type 2 chip gives up for a copy of it: model, memory, signature and counters.
///
/// `nfc dump -o` turns it into a tag image; `nfc restore` writes such an image back. What the chip
/// refused stays `nil`: pages behind a read password (PROT with AUTH0), PWD and PACK (they read as
/// zeros, NTAG213/215/216 §8.8.3), a signature or counter the chip would not give.
public struct Type2Capture: Sendable, Hashable {
    /// The chip, from GET_VERSION.
    public var model: Type2Model
    /// The GET_VERSION answer.
    public var version: Type2Version
    /// Every page of the model, 00h to the PACK page: its 4 bytes, or `nil` when it could not be read.
    public var pages: [[UInt8]?]
    /// The 32-byte originality signature (READ_SIG), when the chip gave it.
    public var signature: [UInt8]?
    /// The one-way counters, as many as the model has (NTAG21x: the NFC counter; Ultralight EV1: three),
    /// each `nil` when READ_CNT was refused (NTAG21x refuses it while NFC_CNT_EN is clear).
    public var counters: [UInt32?]

    /// A capture from its parts, as given.
    public init(model: Type2Model, version: Type2Version, pages: [[UInt8]?], signature: [UInt8]?, counters: [UInt32?]) {
        self.model = model
        self.version = version
        self.pages = pages
        self.signature = signature
        self.counters = counters
    }

    /// The 7-byte UID: pages 00h–02h without the check bytes (ISO/IEC 14443-3 cascade level 2; T2TOP §2.1),
    /// `nil` when page 00h or 01h is missing.
    public var uid: [UInt8]? {
        guard pages.count >= 2, let page0 = pages[0], let page1 = pages[1] else { return nil }
        return Array(page0[0..<3]) + page1
    }

    /// The pages that could not be read, as ranges of page numbers.
    public var unreadPages: [ClosedRange<Int>] { Self.spans(of: pages) }

    /// The runs of `nil` in a list of pages, as ranges of page numbers.
    public static func spans(of pages: [[UInt8]?]) -> [ClosedRange<Int>] {
        var spans: [ClosedRange<Int>] = []
        for (page, bytes) in pages.enumerated() where bytes == nil {
            if let last = spans.last, last.upperBound == page - 1 {
                spans[spans.count - 1] = last.lowerBound...page
            } else {
                spans.append(page...page)
            }
        }
        return spans
    }
}
