import NFCBytes
import NFCTransport

/// The memory of a FeliCa card as rows for `nfc dump`: IDm and PMm, then blocks.
///
/// - FeliCa Lite/Lite-S: S_PAD0–13, REG, and the readable system blocks ID (`82`), D_ID (`83`),
///   SER_C (`84`), SYS_C (`85`), CKV (`86`), MC (`88`), WCNT (`90`) — FeliCa Lite-S User's
///   Manual §3.2, Table 3-1 (RC, MAC, CK, MAC_A, STATE and CRC_CHECK hold nothing to show).
/// - Other cards: the NDEF system's blocks 0…Nmaxb of service `000B` (only block 0 when its
///   attribute block is invalid; nothing more without a `12FC` system — the other systems'
///   services need their codes, and often keys).
///
/// A block the card refuses to read (read-restricted, beyond the service) is a row with no bytes,
/// its label giving the status flags.
struct Type3DumpOperation: TagOperation {
    typealias Output = [(String, [UInt8])]

    enum State: Sendable {
        case idle
        case detecting(Type3Detector)
        case reading(Type3BlockReader, Type3Link)
        case finished
    }

    let link: Type3Link
    private(set) var state = State.idle

    init(link: Type3Link) {
        self.link = link
    }

    /// The blocks of a FeliCa Lite/Lite-S worth dumping, with their names.
    static let liteBlocks: [(UInt16, String)] =
        (0..<14).map { (UInt16($0), "S_PAD\($0)") }
        + [(0x0E, "REG"), (0x82, "ID"), (0x83, "D_ID"), (0x84, "SER_C"), (0x85, "SYS_C"), (0x86, "CKV"), (0x88, "MC"), (0x90, "WCNT")]

    mutating func start() throws(TagEngineError) -> TagStep<Output> {
        if link.ic.isLite {
            let batches = try link.readBatches(Self.liteBlocks.map(\.0), nbr: nil)
            return try read(Type3BlockReader(link: link, batches: batches, tolerant: true), link)
        }
        var detector = Type3Detector(link: link)
        let step = try detector.start()
        state = .detecting(detector)
        return try advance(step)
    }

    mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<Output> {
        switch state {
        case .idle, .finished:
            throw TagEngineError(.unexpectedResponse, "Type 3 dump resumed out of turn")
        case .detecting(var detector):
            let step = try detector.resume(with: outcome)
            state = .detecting(detector)
            return try advance(step)
        case .reading(var reader, let link):
            try reader.accept(outcome)
            return try read(reader, link)
        }
    }

    private mutating func advance(_ step: TagStep<Type3Detection>) throws(TagEngineError) -> TagStep<Output> {
        switch step.relay(to: Output.self) {
        case .pass(let next):
            return next
        case .finished(let detection):
            guard detection.missingSystem == nil else {
                state = .finished
                return .done(header(detection.link))
            }
            guard case .success(let attribute) = detection.attribute else {
                state = .finished
                return .done(header(detection.link) + [("block 0000 (attribute, invalid)", detection.blocks[0] ?? [])])
            }
            let blocks = (0...Int(attribute.maximumBlocks)).map(UInt16.init)
            let batches = try detection.link.readBatches(blocks, nbr: Int(attribute.blocksPerRead))
            return try read(Type3BlockReader(link: detection.link, batches: batches, tolerant: true), detection.link)
        }
    }

    private mutating func read(_ reader: Type3BlockReader, _ link: Type3Link) throws(TagEngineError) -> TagStep<Output> {
        var reader = reader
        if let next = reader.next() {
            state = .reading(reader, link)
            return .transceive(next.frame, timeout: next.timeout)
        }
        state = .finished
        let named: [(UInt16, String)] =
            link.ic.isLite
            ? Self.liteBlocks
            : Set(reader.blocks.keys).union(reader.refused.keys).sorted().map { ($0, $0 == 0 ? "attribute" : "") }
        var rows = header(link)
        for (block, name) in named {
            let number = Hex.encode(link.ic.isLite ? [UInt8(block & 0xFF)] : [UInt8(block >> 8), UInt8(block & 0xFF)], uppercase: true)
            let label = "block \(number)" + (name.isEmpty ? "" : " (\(name))")
            if let data = reader.blocks[block] {
                rows.append((label, data))
            } else if let flags = reader.refused[block] {
                rows.append((label + " refused: status \(Hex.encode(flags, uppercase: true, separator: " "))", []))
            }
        }
        return .done(rows)
    }

    private func header(_ link: Type3Link) -> [(String, [UInt8])] {
        [("IDm", link.idm), ("PMm", link.pmm)]
    }
}
