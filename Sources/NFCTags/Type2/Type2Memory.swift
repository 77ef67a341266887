/// The pages of a Type 2 tag read so far: a sparse image addressed by byte (page × 4 + index).
///
/// NFC Forum Type 2 Tag Operation 1.1 (T2TOP) §2.1: memory is a sequence of 4-byte blocks (pages)
/// addressed from 0.
struct Type2Memory: TLVAreaBytes, Sendable, Hashable {
    private var pages: [Int: [UInt8]] = [:]

    /// Stores the bytes of consecutive pages from `firstPage` (a multiple of 4 bytes).
    mutating func store(_ bytes: [UInt8], from firstPage: Int) {
        var page = firstPage
        var index = bytes.startIndex
        while index + 4 <= bytes.endIndex {
            pages[page] = Array(bytes[index..<index + 4])
            page += 1
            index += 4
        }
    }

    /// Replaces one page.
    mutating func set(page: Int, _ bytes: [UInt8]) {
        guard bytes.count == 4 else { return }
        pages[page] = bytes
    }

    /// The 4 bytes of a page, if read.
    func page(_ number: Int) -> [UInt8]? { pages[number] }

    /// Whether a page was read.
    func has(page number: Int) -> Bool { pages[number] != nil }

    /// The byte at an address, if its page was read.
    func byte(at address: Int) -> UInt8? {
        guard address >= 0, let page = pages[address / 4] else { return nil }
        return page[address % 4]
    }

    /// The pages read, in order, as (page, bytes).
    var rows: [(Int, [UInt8])] { pages.keys.sorted().compactMap { key in pages[key].map { (key, $0) } } }
}
