import NFCTransport

/// The read commands that fetch a set of pages in the fewest, largest exchanges the reader allows.
///
/// READ (30h) returns 4 pages; FAST_READ (3Ah, NTAG21x and Ultralight EV1 only) returns any run of
/// pages in one frame (NTAG213/215/216 §10.2–10.3). Air time (AIRTIME.md) grows by ≈ 85 µs per byte
/// and ≈ 1 ms per exchange, so runs separated by up to 3 unneeded pages are read together. When
/// FAST_READ exists it is used even for 4 pages: unlike READ it never rolls over (past the last
/// page, or at AUTH0 under read protection, READ wraps to page 0 and would return wrong pages).
struct Type2ReadPlan: Sendable, Hashable {
    /// One read.
    enum Command: Sendable, Hashable {
        /// READ from `page`; the pages `page ..< page + keep` are stored (the rest may roll over).
        case read(page: Int, keep: Int)
        /// FAST_READ of `start ... end`.
        case fastRead(start: Int, end: Int)

        var frame: [UInt8] {
            switch self {
            case .read(let page, _): Type2Command.read(page)
            case .fastRead(let start, let end): Type2Command.fastRead(start, end)
            }
        }

        var expectedLength: Int {
            switch self {
            case .read: 16
            case .fastRead(let start, let end): (end - start + 1) * 4
            }
        }

        var firstPage: Int {
            switch self {
            case .read(let page, _): page
            case .fastRead(let start, _): start
            }
        }

        var description: String {
            switch self {
            case .read(let page, _): "READ \(Type2Command.hex(page))"
            case .fastRead(let start, let end): "FAST_READ \(Type2Command.hex(start))–\(Type2Command.hex(end))"
            }
        }
    }

    /// The largest gap of unneeded pages a FAST_READ reads through rather than starting another
    /// exchange.
    static let mergeGap = 3

    var commands: [Command]

    /// Plans reads of `pages`.
    ///
    /// - Parameters:
    ///   - pages: the pages wanted (any order, duplicates allowed).
    ///   - fastRead: whether the chip knows FAST_READ and the reader carries it.
    ///   - maximumLength: the most bytes one answer may carry (the reader's limit and the engine's
    ///     cap).
    /// - Throws: `unsupported` when no read fits (READ needs 16 bytes, FAST_READ 4) or a page lies
    ///   beyond the 256 that READ and FAST_READ address.
    init(pages: [Int], fastRead: Bool, maximumLength: Int) throws(TagEngineError) {
        let wanted = Array(Set(pages)).sorted()
        commands = []
        guard let first = wanted.first else { return }
        guard first >= 0, let highest = wanted.last, highest <= 0xFF else {
            throw TagEngineError(.unsupported, "page \(wanted.last ?? first) lies beyond the pages 00h–FFh a read addresses")
        }
        if fastRead, maximumLength >= 4 {
            let maxPages = min(maximumLength / 4, 256)
            var start = first
            var last = first
            for page in wanted.dropFirst() {
                if page - start + 1 <= maxPages, page - last - 1 <= Self.mergeGap {
                    last = page
                } else {
                    commands.append(.fastRead(start: start, end: last))
                    start = page
                    last = page
                }
            }
            commands.append(.fastRead(start: start, end: last))
            return
        }
        guard maximumLength >= 16 else {
            throw TagEngineError(
                .unsupported, "READ answers 16 bytes but the reader carries at most \(maximumLength) (and FAST_READ is not available)")
        }
        var index = 0
        while index < wanted.count {
            let start = wanted[index]
            var last = start
            while index < wanted.count, wanted[index] <= start + 3 {
                last = wanted[index]
                index += 1
            }
            commands.append(.read(page: start, keep: last - start + 1))
        }
    }
}

/// What the engine may read with over a connection.
struct Type2ReadLimits: Sendable, Hashable {
    /// Whether FAST_READ may be sent (the chip answered GET_VERSION as NTAG21x or Ultralight EV1, and
    /// the reader carries native commands).
    var fastRead: Bool
    /// The most bytes one answer may carry.
    var maximumLength: Int

    init(limits: ExchangeLimits, cap: Int?, version: Type2Version?) {
        var length = limits.maxResponseLength
        if case .readAndWriteOnly(let readLength) = limits.nativeCommands {
            length = min(length, readLength)
            fastRead = false
        } else {
            fastRead = version?.isNXPType2Family ?? false
        }
        if let cap { length = min(length, cap) }
        maximumLength = length
    }

    func plan(_ pages: [Int]) throws(TagEngineError) -> Type2ReadPlan {
        try Type2ReadPlan(pages: pages, fastRead: fastRead, maximumLength: maximumLength)
    }
}
